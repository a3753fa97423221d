(** * The streaming composition theorem by the accountant: CW bounds for any number of runs

    The same database released K times, [fmech_cw (fmech_power M K) f f'], is
    (ε, δ)-CW-private when the K-fold composition [fmech_power M K] is (ε, δ)-DP over
    the support pairs x ∈ supp f, x' ∈ supp f' ([cw_stream_of_dp], joint convexity of
    the hockey-stick divergence).  [cw_stream_acc] takes that DP bound from the
    accountant ([dp_power_acc]: the pairs' PLDs raised to the K-th power in floats
    rounded down), so neither the m^K-row product table nor the classes of output
    sequences are built: K in the thousands costs what the accountant costs.
    [cw_stream_acc_le]: the same at any ε above the rational one the accountant checks
    (ε ↦ e^ε·Pr[·] is monotone), for claims such as ε = K·ln(19/4). *)
From Coq Require Import List Bool ZArith QArith Qreals Reals Lra.
From Interval Require Import Float.Primitive_ops Interval.Float_full Interval.Interval Real.Xreal.
From Obligations.Core Require Import RealFacts.
From Obligations.Finite Require Import Mechanism DP Checker CheckerSound Compose BasicComposition CW CWStream PLDCheck.
From Obligations.Accountant Require Import DownFloat ComposeCheck.

Local Open Scope R_scope.

(** The accountant's check over the support pairs of the priors proves (ε, δ)-CW-privacy
    of K runs on the same database. *)
Theorem cw_stream_acc (M : fmech) (f f' : list Q) (b : Q) (d : Z) (ups : list (Z * list Q))
    (k : nat) (tau : F.type) (eps : R) (eI : I.type) (z0 : Z) (delta : Q) :
  acc_pairs (supp_nb f f') M b d ups = true ->
  check_prior (n_in M) f = true -> check_prior (n_in M) f' = true ->
  (0 < k)%nat -> 0 <= eps -> (0 <= delta)%Q -> has eI eps ->
  forallb (fun pld => le_check (win_upper (base_consts b d) d eI z0 (pld_window tau d k pld)) delta) ups = true ->
  cw_dp (fmech_power M k) f f' eps (Q2R delta).
Proof.
  intros Hacc Hf Hf' Hk He Hd HeI Hup.
  destruct (wf_of_check_distr M (acc_pairs_distr _ _ _ _ _ Hacc)) as [W HM].
  apply (cw_stream_of_dp (supp_nb f f')); try assumption.
  - apply prior_of_check, Hf.
  - apply prior_of_check, Hf'.
  - rewrite <- q2r_0. apply Qle_Rle, Hd.
  - intros x x' H. exact H.
  - apply (dp_power_acc _ M b d ups k tau eps eI z0 delta); assumption.
Qed.

(** A larger ε keeps (ε, δ)-CW-privacy: the probabilities are non-negative. *)
Lemma cw_dp_eps_mono (M : fmech) (f f' : list Q) (e1 e2 delta : R) :
  fmech_wf M -> subdistr M -> prior (n_in M) f -> prior (n_in M) f' -> e1 <= e2 ->
  cw_dp M f f' e1 delta -> cw_dp M f f' e2 delta.
Proof.
  intros W HM Hf Hf' He H x x' Hx Hx' Hnb S.
  pose proof (H x x' Hx Hx' Hnb S) as H1.
  pose proof (pr_nonneg _ x' S (proj1 (cw_subdistr M f f' W HM Hf Hf' x' Hx'))) as H2.
  assert (exp e1 <= exp e2) by (destruct (Req_dec e1 e2) as [->|]; [lra|apply Rlt_le, exp_increasing; lra]).
  nra.
Qed.

(** [cw_stream_acc] at a rational ε₀ ≤ ε gives (ε, δ). *)
Theorem cw_stream_acc_le (M : fmech) (f f' : list Q) (b : Q) (d : Z) (ups : list (Z * list Q))
    (k : nat) (tau : F.type) (e0 eps : R) (eI : I.type) (z0 : Z) (delta : Q) :
  acc_pairs (supp_nb f f') M b d ups = true ->
  check_prior (n_in M) f = true -> check_prior (n_in M) f' = true ->
  (0 < k)%nat -> 0 <= e0 -> e0 <= eps -> (0 <= delta)%Q -> has eI e0 ->
  forallb (fun pld => le_check (win_upper (base_consts b d) d eI z0 (pld_window tau d k pld)) delta) ups = true ->
  cw_dp (fmech_power M k) f f' eps (Q2R delta).
Proof.
  intros Hacc Hf Hf' Hk He0 He Hd HeI Hup.
  destruct (wf_of_check_distr M (acc_pairs_distr _ _ _ _ _ Hacc)) as [W HM].
  apply (cw_dp_eps_mono _ _ _ e0); try assumption.
  - apply power_wf', W.
  - apply power_subdistr; assumption.
  - apply prior_power, prior_of_check, Hf.
  - apply prior_power, prior_of_check, Hf'.
  - apply (cw_stream_acc M f f' b d ups k tau e0 eI z0 delta); assumption.
Qed.
