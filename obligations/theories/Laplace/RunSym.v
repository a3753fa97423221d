(** * Symbolic execution of one run over the reals, for refutations

    [rrun E] executes [E : r = rtape_run p nvars x v] statement by statement on a
    computed state, splitting on every condition as it is reached (a condition
    left inside the state would duplicate the rest of the run at each later
    statement); each case ends with [E : r = Some outs] or [None].  The steps are
    the unfolding laws of [rexec] and [rfor] on a state not halted ([rx_seq],
    [rx_if], [rf_step]); other statements are computed in place. *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Program Require Import ProgramSyntax.
From Obligations.Coupling Require Import TapeSem.
From Obligations.Laplace Require Import RealTape RealAlignSteps RealSym.
Import ListNotations.
Local Open Scope R_scope.

Lemma rx_seq (v : nat -> R) s1 s2 a st : rhalted st = false ->
  rexec v (SSeq s1 s2) a st = rexec v s2 (a + size s1) (rexec v s1 a st).
Proof. intros H. cbn [rexec]. rewrite H. reflexivity. Qed.

Lemma rx_if (v : nat -> R) b s1 s2 a st : rhalted st = false ->
  rexec v (SIf b s1 s2) a st =
  if rbeval (renv st) b then rexec v s1 a (rbranch true st) else rexec v s2 (a + size s1) (rbranch false st).
Proof. intros H. cbn [rexec]. rewrite H. reflexivity. Qed.

Lemma rx_for (v : nat -> R) x n body a st : rhalted st = false ->
  rexec v (SFor x n body) a st = rfor (rexec v body) x (size body) a 0%Z n st.
Proof. intros H. cbn [rexec]. rewrite H. reflexivity. Qed.

Lemma rf_step step x sb a i n st : rhalted st = false ->
  rfor step x sb a i (S n) st = rfor step x sb (a + sb) (Z.succ i) n (step a (rset x (IZR i) st)).
Proof. intros H. cbn [rfor]. rewrite H. reflexivity. Qed.

(** [rtape_run] as a law to rewrite with, never unfolded in place: a change of the
    hypothesis leaves no term, so the kernel compares the hypothesis as first stated
    ([rtape_run ...]) with its computed form at its first use, and that comparison, heads
    [rtape_run] and [rfault], unfolded [rfault] first and ran the whole program
    symbolically (badsparsevector1 at length 2: the Qed of one run did not finish in 4.6
    minutes of CPU; 0.01 s once the hypothesis is rewritten with this law). *)
Lemma rtape_run_rexec (p : stmt) (nvars : nat) (x : list Z) (v : list R) :
  rtape_run p nvars x v =
  if rfault (rexec (rtape v) p 0 (rinit nvars x)) then None else Some (rout (rexec (rtape v) p 0 (rinit nvars x))).
Proof. reflexivity. Qed.

(** A rounding down of a whole number divided by a positive constant ([//] and [%] of values
    that do not depend on the noise, e.g. of the loop index) is the integer quotient. *)
Lemma rfloor_div_of_eq (r : R) (a : Z) (d : positive) : r = IZR a ->
  rfloor (r / IZR (Zpos d)) = (a / Zpos d)%Z.
Proof.
  intros ->. unfold rfloor.
  pose proof (Z.div_mod a (Zpos d) ltac:(lia)) as Hdm. pose proof (Z.mod_pos_bound a (Zpos d) ltac:(lia)) as Hb.
  set (q := (a / Zpos d)%Z) in *. set (m := (a mod Zpos d)%Z) in *.
  assert (Hd : 0 < IZR (Zpos d)) by (apply IZR_lt; lia).
  assert (Hm0 : 0 <= IZR m) by (apply IZR_le; lia).
  assert (Hm1 : IZR m < IZR (Zpos d)) by (apply IZR_lt; lia).
  assert (E : IZR a / IZR (Zpos d) = IZR q + IZR m / IZR (Zpos d)).
  { rewrite Hdm at 1. rewrite plus_IZR, mult_IZR. field. lra. }
  assert (H0 : 0 <= IZR m / IZR (Zpos d)) by (unfold Rdiv; apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]).
  assert (H1 : IZR m / IZR (Zpos d) < 1).
  { apply (Rmult_lt_reg_r (IZR (Zpos d))); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra. }
  rewrite <- (R_Ifp.tech_up (IZR a / IZR (Zpos d)) (q + 1)); [lia | rewrite plus_IZR; lra | rewrite plus_IZR; lra].
Qed.

Ltac rfloor_div_in E :=
  repeat match type of E with
  | context [rfloor (?r / IZR (Zpos ?d))] =>
      let z := zterm r in
      rewrite (rfloor_div_of_eq r z d) in E by (izr_push; ring)
  end;
  repeat match type of E with
  | context [(?x / Zpos ?y)%Z] =>
      let b := eval vm_compute in (x / Zpos y)%Z in change (x / Zpos y)%Z with b in E
  end.

(** Normalise the computed parts of [E] (never [rexec] nor [rfor]: see the header). *)
Ltac rrnorm E :=
  unfold rset, remit, rbranch, rstop, rfail in E;
  cbn [renv rout rtr rhalted rfault rwrite raeval rbeval rread nth length app Nat.add size] in E;
  rfloor_div_in E; rfloor_int_in E; zground_in E;
  cbn [renv rout rtr rhalted rfault rwrite raeval rbeval rread nth length app Nat.add size andb orb negb] in E.

Ltac rrun_step E :=
  match type of E with
  | context [rexec ?v ?s ?a (mkrs ?e ?o ?t true ?f)] =>
      rewrite (rexec_halted v s a (mkrs e o t true f)) in E by reflexivity
  | context [rfor ?step ?x ?sb ?a ?i ?n (mkrs ?e ?o ?t true ?f)] =>
      rewrite (rfor_halted step x sb a i n (mkrs e o t true f)) in E by reflexivity
  | context [rfor ?step ?x ?sb ?a ?i O (mkrs ?e ?o ?t ?h ?f)] =>
      change (rfor step x sb a i O (mkrs e o t h f)) with (mkrs e o t h f) in E
  | context [rfor ?step ?x ?sb ?a ?i (S ?n) (mkrs ?e ?o ?t false ?f)] =>
      rewrite (rf_step step x sb a i n (mkrs e o t false f)) in E by reflexivity; rrnorm E
  | context [rexec ?v ?s ?a (mkrs ?e ?o ?t false ?f)] =>
      let st := constr:(mkrs e o t false f) in
      lazymatch s with
      | SSeq _ _ => rewrite (rx_seq v _ _ a st) in E by reflexivity; rrnorm E
      | SFor _ _ _ => rewrite (rx_for v _ _ _ a st) in E by reflexivity; rrnorm E
      | SIf ?b _ _ =>
          rewrite (rx_if v b _ _ a st) in E by reflexivity;
          let H := fresh "Hc" in destruct (rbeval (renv st) b) eqn:H; rrnorm H; rrnorm E
      | _ => let r := eval cbn [rexec] in (rexec v s a st) in change (rexec v s a st) with r in E; rrnorm E
      end
  end.

Ltac rrun E := rewrite rtape_run_rexec in E; unfold rinit, rtape in E; cbn [repeat app map] in E; rrnorm E; repeat rrun_step E;
  cbn [rfault rout] in E.

(** A leaf: the event decided on the released reals, or the comparisons taken contradictory. *)
Ltac rrleaf :=
  rbool_hyps; izr_push_all; unfold is_true, reqb in *;
  repeat match goal with |- context [Req_EM_T ?x ?y] => destruct (Req_EM_T x y) end;
  cbn [andb orb negb]; first [reflexivity | exfalso; lra].
