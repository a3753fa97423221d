(** * The measurable pieces of CheckDP's sparsevector under continuous Laplace noise, for every
    stream length

    The program is what `obligations` renders of mechanisms/checkdp/sparsevector_laplace.yaml
    (NN = 3); the shift is the alignment the discrete route proves for every length (the noisy
    threshold moved by 1, an answer at or above it by 1 plus the difference of centres, on the
    branch prophecy), read over the reals.  [zshift_mfibers] (RunFibers.v) makes the duty of
    [rdp_of_aligned] on measurable pieces one about the shift function, which [mshift] closes;
    nothing depends on the stream length [k]. *)
From Obligations Require Import PreludeLaplace.
Local Open Scope Z_scope.

Definition sparsevector_all_k_body (k : nat) : stmt :=
  (SSeq
    (SAssign 3 (AIdx 6 k (AVar 2)))
    (SSeq
      (SSample 4 (DGeom 12 1 (AVar 3)))
      (SIf (BLe (AVar 0) (AVar 4))
        (SSeq
          (SOut (AConst 1))
          (SSeq
            (SAssign 1 (AAdd (AVar 1) (AConst 1)))
            (SIf (BLe (AConst 3) (AVar 1))
              SStop
              SSkip)))
        (SOut (AConst 0))))).

Definition sparsevector_all_k_prog (k : nat) : stmt :=
  (SSeq
    (SSample 0 (DGeom 2 1 (AVar 5)))
    (SSeq
      (SAssign 1 (AConst 0))
      (SFor 2 k (sparsevector_all_k_body k)))).

Definition sparsevector_all_k_shift (o : list roval) (tr : list bool) (site : nat) (L A : rstate) : Z :=
  match site with
  | 0%nat => 1
  | 1%nat => match nth_error tr (length (rtr L)) with
             | Some true => rfloor (IZR 1 + (raeval (renv L) (AVar 3) - raeval (renv A) (AVar 3)))%R
             | Some false => 0 | None => 0 end
  | _ => 0
  end.

Definition sparsevector_all_k_nb (k : nat) : list Z -> list Z -> Prop := nb_input 1 k (rel_each (-1) 1).

(** For every stream length, the claim (eps-DP, every eps > 0 and every set of outputs) follows
    from the aligned run being void or good alone: the measurable pieces are no duty. *)
Theorem sparsevector_all_k_dp_of_good :
  (forall k x x', sparsevector_all_k_nb k x x' -> forall v o tr,
     good_run 12 true (pexec v (sparsevector_all_k_shift o tr) 12 o tr true (sparsevector_all_k_prog k) 0 0
                         (pinit 5 x x' v))) ->
  rdp_all_k sparsevector_all_k_nb sparsevector_all_k_prog 5 (IZR 12 / IZR 12)%R.
Proof.
  intros Hgood.
  rewrite Rstruct.RdivE by (apply (ssrbool.introN eqtype.eqP); change (IZR 12 <> IZR 0); apply not_0_IZR; discriminate).
  apply (@rdp_all_k_of_aligned sparsevector_all_k_nb sparsevector_all_k_prog 5 12 12 true
           (fun _ => sparsevector_all_k_shift)); [lia | intros k; reflexivity | exact Hgood |].
  intros k e x x' z _. revert z.
  apply zshift_mfibers. unfold sparsevector_all_k_shift. mshift.
Qed.

Local Set Printing Width 100000.
Print Assumptions sparsevector_all_k_dp_of_good.
