"""The routes of a table or formula's claim, in the order they are tried (the finite form's,
and an audit's of a table): CW's K runs on the same database (by classes of output sequences, beyond them by the
composition theorem, and where the theorem cannot decide, for randomized response, by block counts when
the priors lie on two pairs of inputs, else by coefficient vectors),
a member of a library family, then a composed claim without its product table (basic
composition when it suffices, else the accountant), else the table."""
from __future__ import annotations

from typing import Any

from obligations.core.model import Route
from obligations.core.spec import MechanismSpec
from obligations.table.by_accountant import BY_ACCOUNTANT
from obligations.table.by_basic_composition import BY_BASIC_COMPOSITION
from obligations.table.by_family import BY_FAMILY
from obligations.table.by_stream import BY_STREAM
from obligations.table.by_stream_coef import BY_STREAM_COEF
from obligations.table.by_stream_group import BY_STREAM_GROUP
from obligations.table.by_stream_theorem import BY_STREAM_THEOREM
from obligations.table.by_table import BY_TABLE

FINITE_ROUTES: tuple[Route[MechanismSpec, Any], ...] = (BY_STREAM, BY_STREAM_THEOREM, BY_STREAM_GROUP, BY_STREAM_COEF,
                                                         BY_FAMILY, BY_BASIC_COMPOSITION, BY_ACCOUNTANT, BY_TABLE)
