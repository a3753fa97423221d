"""obligations: differential-privacy claims unfolded into Coq proof obligations."""

__version__ = "0.1.0"
