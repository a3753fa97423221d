(** * Zero-concentrated DP of K runs of an integer noise, and (ε, δ) from it

    K runs of a noise p over Z added to the input x give the vector w ∈ Z^K with probability
    Π_i p(w_i − x) ([vp], Accountant/NoiseBox.v).  The Rényi moment of order a between the
    inputs x and x' over a finite set l of vectors is Σ_{w ∈ l} P(w)^a·Q(w)^(1−a) ([zmoment]);
    the Rényi divergence of order a is D_a = ln(moment)/(a − 1), so D_a ≤ a·ρ is the moment at
    most e^((a−1)·a·ρ).  [zcdp p Δ K ρ]: for inputs at distance at most Δ, every real order
    a > 1 and every finite set of vectors of length K, the moment is at most e^((a−1)·a·ρ) —
    ρ-zero-concentrated DP of the K runs (Bun and Steinke), over every finite set of outputs
    since the outputs are countably many.  [zdp_of_zcdp]: ρ-zCDP gives (ε, δ)-DP for every
    event with δ = e^((a−1)(a·ρ − ε)) at every real a > 1 (Core/RenyiBound.v's
    hockey-stick bound over every box, then Accountant/NoiseDP.v's [zdp_pair_of_box]); at the
    best order a = (ρ + ε)/2ρ, for ε > ρ, δ = e^(−(ε − ρ)²/4ρ) ([zdp_of_zcdp_best]). *)
From Coq Require Import List ZArith Reals Lra Lia.
From Obligations.Core Require Import RealFacts Sums RenyiBound.
From Obligations.Coupling Require Import LubSum Product.
From Obligations.Accountant Require Import NoiseBox NoiseDP.
Import ListNotations.
Local Open Scope R_scope.

Definition zmoment (p : Z -> R) (x x' : Z) (a : R) (l : list (list Z)) : R :=
  rsum (map (fun w => Rpower (vp (fun y => p (y - x)%Z) w) a * Rpower (vp (fun y => p (y - x')%Z) w) (1 - a)) l).

Definition zcdp (p : Z -> R) (Delta : Z) (K : nat) (rho : R) : Prop :=
  forall x x' : Z, (Z.abs (x - x') <= Delta)%Z -> forall a, 1 < a ->
  forall l, NoDup l -> (forall w, In w l -> length w = K) -> zmoment p x x' a l <= exp ((a - 1) * (a * rho)).

Lemma vp_positive (p : Z -> R) (w : list Z) : (forall y, 0 < p y) -> 0 < vp p w.
Proof. intros Hp. induction w as [|y w IH]; cbn [vp]; [lra|]. apply Rmult_lt_0_compat; [apply Hp|exact IH]. Qed.

Theorem zdp_of_zcdp (p : Z -> R) (Delta : Z) (K : nat) (rho a eps : R) :
  (forall z, 0 < p z) -> sum_le p 1 -> 1 < a -> zcdp p Delta K rho ->
  zdp p Delta K eps (exp ((a - 1) * (a * rho - eps))).
Proof.
  intros Hp Hsum Ha Hz x x' HD S.
  apply (zdp_pair_of_box p K (fun z => Rlt_le _ _ (Hp z)) Hsum x x' eps _ 0).
  intros m _. unfold hsbox. eapply Rle_trans.
  { apply (hs_le_renyi (box K m) _ _ (exp eps) a);
      [intros; left; apply vp_positive; intros; apply Hp|intros; apply vp_positive; intros; apply Hp|apply exp_pos|exact Ha]. }
  eapply Rle_trans; [apply Rmult_le_compat_l; [apply rpower_nonneg|]|].
  { apply (Hz x x' HD a Ha (box K m) (box_NoDup K m) (box_length K m)). }
  unfold Rpower. rewrite ln_exp, <- exp_plus. apply Req_le. f_equal. ring.
Qed.

(** The best order a = (ρ + ε)/2ρ > 1: δ = e^(−(ε − ρ)²/4ρ). *)
Corollary zdp_of_zcdp_best (p : Z -> R) (Delta : Z) (K : nat) (rho eps : R) :
  (forall z, 0 < p z) -> sum_le p 1 -> 0 < rho < eps -> zcdp p Delta K rho ->
  zdp p Delta K eps (exp (- ((eps - rho) * (eps - rho)) / (4 * rho))).
Proof.
  intros Hp Hsum Hr Hz. set (a := (rho + eps) / (2 * rho)).
  assert (Ha : 1 < a) by (unfold a; apply div_lt_iff; lra).
  replace (- ((eps - rho) * (eps - rho)) / (4 * rho)) with ((a - 1) * (a * rho - eps)) by (unfold a; field; lra).
  apply zdp_of_zcdp; assumption.
Qed.
