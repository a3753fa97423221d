(** * The sparse-vector family: its runs, its alignment and its cost, for every k

    [svt_spec c tn cnt x ns] is the output of a sparse-vector run with noisy
    threshold [tn], [cnt] answers above it so far, cutoff [c], query answers
    [x] and query noise [ns]: ⊤ when [q + n >= tn] (stopping at the [c]-th ⊤),
    ⊥ otherwise.  A generated file proves that its program's tape semantics is
    this function (a lemma per program, by symbolic execution of the loop
    body); the alignment is proved here once, from two side conditions the
    generated file proves for its own numbers:
    - above the threshold, shifting the query noise by [ftop q q'] and the
      threshold noise by [dt] keeps the neighbour above;
    - below it, the unshifted query noise keeps the neighbour below.
    The cost is [dt] on the threshold and [ftop] on at most [c] queries. *)
From Coq Require Import List ZArith Reals Lia Lra.
From Obligations.Program Require Import ProgramSyntax.
From Obligations.Coupling Require Import Product SeqTape.
Import ListNotations.
Local Open Scope R_scope.

Fixpoint svt_spec (c tn cnt : Z) (x ns : list Z) : list oval :=
  match x, ns with
  | q :: x', n :: ns' =>
      if (tn <=? q + n)%Z
      then OTop :: (if (c <=? cnt + 1)%Z then [] else svt_spec c tn (cnt + 1) x' ns')
      else OBot :: svt_spec c tn cnt x' ns'
  | _, _ => []
  end.

(** The query part of the shift: [ftop q q'] where the run answered ⊤, 0 elsewhere. *)
Fixpoint svt_qshift (ftop : Z -> Z -> Z) (x x' : list Z) (o : list oval) : list Z :=
  match x, x', o with
  | a :: x1, b :: x1', OTop :: o1 => ftop a b :: svt_qshift ftop x1 x1' o1
  | _ :: x1, _ :: x1', _ :: o1 => 0%Z :: svt_qshift ftop x1 x1' o1
  | _, _, _ => []
  end.

(** The shift of the whole tape: [dt] on the threshold (position 0). *)
Definition svt_shift (dt : Z) (ftop : Z -> Z -> Z) (x x' : list Z) (o : option (list oval)) : list Z :=
  match o with Some o => dt :: svt_qshift ftop x x' o | None => [] end.

Lemma svt_spec_align (c dt delta : Z) (ftop : Z -> Z -> Z) :
  (forall tn a b n, (Z.abs (a - b) <= delta)%Z -> (tn <= a + n)%Z -> (tn + dt <= b + (n + ftop a b))%Z) ->
  (forall tn a b n, (Z.abs (a - b) <= delta)%Z -> (a + n < tn)%Z -> (b + (n + 0) < tn + dt)%Z) ->
  forall tn cnt x x' ns, stream_nb delta x x' -> length ns = length x ->
  svt_spec c (tn + dt) cnt x' (vadd ns (svt_qshift ftop x x' (svt_spec c tn cnt x ns)))
  = svt_spec c tn cnt x ns.
Proof.
  intros Htop Hbot tn cnt x x' ns Hnb. revert cnt ns.
  induction Hnb as [|a b x1 x1' Hab Hnb IH]; intros cnt [|n ns] Hl; cbn [length] in Hl; try lia.
  - reflexivity.
  - cbn [svt_spec]. destruct (tn <=? a + n)%Z eqn:E.
    + apply Z.leb_le in E. cbn [svt_qshift vadd svt_spec].
      rewrite (proj2 (Z.leb_le _ _) (Htop tn a b n Hab E)).
      destruct (c <=? cnt + 1)%Z.
      * destruct x1, x1'; reflexivity.
      * f_equal. apply IH. lia.
    + apply Z.leb_gt in E. cbn [svt_qshift vadd svt_spec].
      rewrite (proj2 (Z.leb_gt _ _) (Hbot tn a b n Hab E)). f_equal. apply IH. lia.
Qed.

Lemma cost_nil (ts : list R) : cost ts [] = 0.
Proof. destruct ts; reflexivity. Qed.

Lemma svt_qshift_cost (c delta m : Z) (ftop : Z -> Z -> Z) (rr : R) :
  0 <= rr -> (0 <= m)%Z -> (forall a b, (Z.abs (a - b) <= delta)%Z -> (Z.abs (ftop a b) <= m)%Z) ->
  forall tn cnt ts x x' ns, (0 <= cnt < c)%Z -> (forall t, In t ts -> t = rr) -> stream_nb delta x x' ->
  cost ts (svt_qshift ftop x x' (svt_spec c tn cnt x ns)) <= rr * IZR m * IZR (c - cnt).
Proof.
  intros Hr Hm0 Hm tn cnt ts x x' ns Hc Hts Hnb. revert cnt ts ns Hc Hts.
  assert (Hpos : forall z, (0 <= z)%Z -> 0 <= rr * IZR m * IZR z).
  { intros z Hz. apply Rmult_le_pos; [apply Rmult_le_pos; [exact Hr|apply IZR_le, Hm0]|apply IZR_le, Hz]. }
  induction Hnb as [|a b x1 x1' Hab Hnb IH]; intros cnt ts ns Hc Hts.
  - cbn [svt_spec svt_qshift]. rewrite cost_nil. apply Hpos. lia.
  - destruct ns as [|n ns]; [cbn [svt_spec svt_qshift]; rewrite cost_nil; apply Hpos; lia|].
    destruct ts as [|t ts].
    { cbn [cost]. apply Hpos. lia. }
    assert (Ht : t = rr) by (apply Hts; now left). subst t.
    assert (Hts' : forall u, In u ts -> u = rr) by (intros u Hu; apply Hts; now right).
    assert (Hf : 0 <= IZR (Z.abs (ftop a b)) <= IZR m) by
      (split; apply IZR_le; [apply Z.abs_nonneg|apply Hm, Hab]).
    cbn [svt_spec]. destruct (tn <=? a + n)%Z.
    + cbn [svt_qshift cost]. destruct (c <=? cnt + 1)%Z eqn:Ec.
      * replace (svt_qshift ftop x1 x1' []) with (@nil Z) by (destruct x1, x1'; reflexivity).
        rewrite cost_nil. assert (H1 : 1 <= IZR (c - cnt)) by (apply IZR_le; lia).
        assert (0 <= rr * IZR m) by (apply Rmult_le_pos; [exact Hr|apply IZR_le, Hm0]).
        assert (rr * IZR (Z.abs (ftop a b)) <= rr * IZR m) by (apply Rmult_le_compat_l; lra).
        assert (rr * IZR m * 1 <= rr * IZR m * IZR (c - cnt)) by (apply Rmult_le_compat_l; lra).
        lra.
      * apply Z.leb_gt in Ec. specialize (IH (cnt + 1)%Z ts ns ltac:(lia) Hts').
        replace (c - cnt)%Z with ((c - (cnt + 1)) + 1)%Z by ring. rewrite plus_IZR.
        assert (rr * IZR (Z.abs (ftop a b)) <= rr * IZR m) by (apply Rmult_le_compat_l; lra).
        lra.
    + cbn [svt_qshift cost]. rewrite Z.abs_0, Rmult_0_r, Rplus_0_l. apply IH; [exact Hc|exact Hts'].
Qed.

(** ** The family's DP, for every stream length and every ε

    A program whose tape semantics is [svt_spec c (T + v_0) 0 x (tl v)] on the
    layout [(nt, dtd) :: repeat (nq, dq) k] (threshold noise of scale nt/dtd,
    one query noise of scale nq/dq per stream element) is ε-DP for every k
    and ε > 0 when the alignment's side conditions hold: the threshold is
    shifted by [dt], a query answered ⊤ by [ftop q q'] (|ftop| ≤ m), and
    the cost |dt|·dtd/nt + c·m·dq/nq is at most 1 (in units of ε). *)
Theorem svt_dp_stream (delta T dt c m : Z) (nt dtd nq dq : positive) (ftop : Z -> Z -> Z)
    (p : nat -> stmt) (nvars : nat) :
  (forall k x v, length x = k -> length v = S k ->
     tape_run ((nt, dtd) :: repeat (nq, dq) k) (p k) nvars x v
     = Some (svt_spec c (T + nth 0 v 0) 0 x (tl v))%Z) ->
  (forall tn a b n, (Z.abs (a - b) <= delta)%Z -> (tn <= a + n)%Z -> (tn + dt <= b + (n + ftop a b))%Z) ->
  (forall tn a b n, (Z.abs (a - b) <= delta)%Z -> (a + n < tn)%Z -> (b + (n + 0) < tn + dt)%Z) ->
  (forall a b, (Z.abs (a - b) <= delta)%Z -> (Z.abs (ftop a b) <= m)%Z) ->
  (0 <= m)%Z -> (0 < c)%Z ->
  (forall eps, 0 < eps ->
     eps * IZR (Zpos dtd) / IZR (Zpos nt) * IZR (Z.abs dt)
     + eps * IZR (Zpos dq) / IZR (Zpos nq) * IZR m * IZR c <= eps) ->
  dp_stream delta p (fun k => (nt, dtd) :: repeat (nq, dq) k) nvars.
Proof.
  intros Hrun Htop Hbot Hm Hm0 Hc Hcost.
  apply (dp_stream_of_alignment _ _ _ _ (svt_shift dt ftop)).
  - intros k x x' v Hx Hnb Hv. cbn [length] in Hv. rewrite repeat_length in Hv.
    pose proof (stream_nb_length _ _ _ Hnb) as Hx'.
    rewrite (Hrun k x v Hx Hv). destruct v as [|v0 ns]; [discriminate|].
    cbn [svt_shift vadd tl nth] in *.
    rewrite (Hrun k x' _ ltac:(lia)) by (cbn [length]; rewrite vadd_length; exact Hv).
    cbn [tl nth]. f_equal. replace (T + (v0 + dt))%Z with ((T + v0) + dt)%Z by ring.
    apply (svt_spec_align c dt delta ftop Htop Hbot); [exact Hnb|]. cbn [length] in Hv. lia.
  - intros k eps x x' v He Hx Hnb Hv. cbn [length] in Hv. rewrite repeat_length in Hv.
    rewrite (Hrun k x v Hx Hv). unfold svt_shift, rates. cbn [map cost fst snd].
    eapply Rle_trans; [|apply (Hcost eps He)]. apply Rplus_le_compat_l.
    replace (IZR c) with (IZR (c - 0)) by (f_equal; ring).
    apply (svt_qshift_cost c delta m ftop); [|exact Hm0|exact Hm|lia| |exact Hnb].
    + apply Rlt_le, Rdiv_lt_0_compat; [apply Rmult_lt_0_compat; [exact He|apply IZR_lt; lia]|apply IZR_lt; lia].
    + intros t Ht. apply in_map_iff in Ht as [w [<- Hw]]. apply repeat_spec in Hw. subst w. reflexivity.
Qed.
