(** * CW-privacy (seed 001, §1.2): the input is drawn from a prior

    [fmech_cw M f f'] has two inputs: 0, the database drawn from the prior
    [f], and 1, its scrubbed version drawn from [f']; row [i] is the mixture
    [Σ_x f(x) · M(x)].  CW-privacy of [M] is DP of this mechanism for the
    neighbours 0 ~ 1 ([cw_dp]).

    Its k-fold composition, the mechanism run k times on the {e same} database,
    is [fmech_cw (fmech_power M k) f f']: the database is drawn once, row [i] is
    [Σ_x f(x) · M(x)^⊗k] ([fmech_cw_power_entry] below).  The other order,
    [fmech_power (fmech_cw M f f') k], draws a fresh database for every run and
    is a different (more private) mechanism. *)
From Coq Require Import List QArith Reals Lia.
From Obligations.Core Require Import Lists Privacy.
From Obligations.Finite Require Import Mechanism Neighbours DP Compose.
Import ListNotations.

Definition mix_row (M : fmech) (f : list Q) : list Q :=
  map (fun y => fold_right Qplus 0%Q
                  (map (fun '(fx, r) => fx * nth y r 0%Q) (combine f (rows M))))
      (seq 0 (n_out M)).

Definition fmech_cw (M : fmech) (f f' : list Q) : fmech :=
  FMech 2 (n_out M) [mix_row M f; mix_row M f'].

(** CW-privacy of [M] for the priors [f] (the database) and [f'] (its
    scrubbed version): (ε, δ)-DP of the two-input mixture [fmech_cw M f f'].
    As in generated files, every two of its inputs are neighbours: 0 ~ 1 both
    ways, and each input with itself, which holds whenever ε, δ ≥ 0. *)
Definition cw_dp (M : fmech) (f f' : list Q) (eps delta : R) : Prop :=
  dp nb_all (fmech_cw M f f') eps delta.

(** [cw_dp] is the core notion [dp_with] for the two inputs of the mixture. *)
Lemma cw_dp_iff_dp_with (M : fmech) (f f' : list Q) (eps delta : R) :
  cw_dp M f f' eps delta <->
  dp_with (fun x x' => (x < 2)%nat /\ (x' < 2)%nat /\ nb_all x x' = true) (pr (fmech_cw M f f')) eps delta.
Proof. apply dp_iff_dp_with. Qed.

(** ** The k-fold composition under CW-privacy, entry by entry

    [fmech_cw (fmech_power M k) f f'] gives the output sequence [ys] (index
    [power_index (n_out M) ys]) the probability Σ_x f(x) · Π_i M(x)(y_i) on
    input 0 (and the same with [f'] on input 1), for a table with rows of the
    right number and length ([fmech_wf]). *)
Section CWPower.
Local Open Scope Q_scope.

Lemma mix_row_nth (M : fmech) (f : list Q) (y : nat) :
  (y < n_out M)%nat ->
  nth y (mix_row M f) 0%Q =
  fold_right Qplus 0%Q (map (fun '(fx, r) => fx * nth y r 0%Q) (combine f (rows M)))%Q.
Proof. intros Hy. unfold mix_row. rewrite nth_map_seq by exact Hy. reflexivity. Qed.

(** The k-fold composition under CW-privacy: the database is drawn once from
    the prior and all k runs see it, so Pr[M'(D) = ys] = Σ_x f(x) · Π_i Pr[M(x) = y_i]
    (and the same with [f'] for the scrubbed input 1): [fmech_cw (fmech_power M k) f f'],
    not [fmech_power (fmech_cw M f f') k], which would draw a fresh database for
    every run. *)
Lemma fmech_cw_power_entry (M : fmech) (f f' : list Q) (ys : list nat) :
  fmech_wf M -> length f = n_in M -> length f' = n_in M ->
  Forall (fun y => y < n_out M)%nat ys ->
  entry (fmech_cw (fmech_power M (length ys)) f f') 0 (power_index (n_out M) ys) =
    fold_right Qplus 0%Q (map (fun x => nth x f 0%Q * run_prob M x ys)%Q (seq 0 (n_in M))) /\
  entry (fmech_cw (fmech_power M (length ys)) f f') 1 (power_index (n_out M) ys) =
    fold_right Qplus 0%Q (map (fun x => nth x f' 0%Q * run_prob M x ys)%Q (seq 0 (n_in M))).
Proof.
  intros Hwf Hf Hf' Hys.
  destruct (fmech_power_wf M (length ys) Hwf) as [Hpn Hpr].
  assert (Hlt : (power_index (n_out M) ys < n_out (fmech_power M (length ys)))%nat).
  { replace (n_out (fmech_power M (length ys))) with (n_out M ^ length ys)%nat.
    - apply power_index_lt, Hys.
    - clear Hys Hpn Hpr. induction (length ys) as [|k IH]; [reflexivity|].
      cbn [fmech_power fmech_product n_out]. rewrite <- IH. reflexivity. }
  assert (Hsum : forall g, length g = n_in M ->
    nth (power_index (n_out M) ys) (mix_row (fmech_power M (length ys)) g) 0%Q =
    fold_right Qplus 0%Q (map (fun x => nth x g 0%Q * run_prob M x ys)%Q (seq 0 (n_in M)))).
  { intros g Hg. rewrite mix_row_nth by exact Hlt. f_equal.
    replace (combine g (rows (fmech_power M (length ys))))
      with (map (fun x => (nth x g 0%Q, nth x (rows (fmech_power M (length ys))) [])) (seq 0 (n_in M))).
    - rewrite map_map. apply map_ext_in. intros x Hx. apply in_seq in Hx.
      rewrite <- (fmech_power_entry M x ys Hwf ltac:(lia) Hys). reflexivity.
    - apply nth_ext with (d := (0%Q, [])) (d' := (0%Q, [])).
      + rewrite map_length, seq_length, combine_length, Hg, Hpn. symmetry. apply Nat.min_id.
      + intros i Hi. rewrite map_length, seq_length in Hi.
        rewrite nth_map_seq by exact Hi.
        rewrite combine_nth by (rewrite Hg, Hpn; reflexivity). reflexivity. }
  split; unfold entry; cbn [fmech_cw rows nth]; apply Hsum; assumption.
Qed.

End CWPower.
