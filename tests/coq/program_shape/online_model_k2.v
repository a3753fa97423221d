(** * online_model_k2: seed 002's OnlineModel on a stream of two queries, as a program *)
(* Hand-written in the shape the generator produces: the program, its input
   vectors and listed outputs, then the claim about the program's semantics.
   Slots: 0 = d (private, Δ 1), 1 = t (public), 2 = t', 3 = i, 4 = f'. *)
From Obligations Require Import Prelude.

(** ** The program *)

(* The truncated 1/4-geometric mechanism over {0..5}, keyed by t. *)
Definition online_model_k2_threshold_rows : list (list Q) :=
  ([[(4 # 5); (3 # 20); (3 # 80); (3 # 320); (3 # 1280); (1 # 1280)];
    [(1 # 5); (3 # 5); (3 # 20); (3 # 80); (3 # 320); (1 # 320)];
    [(1 # 20); (3 # 20); (3 # 5); (3 # 20); (3 # 80); (1 # 80)];
    [(1 # 80); (3 # 80); (3 # 20); (3 # 5); (3 # 20); (1 # 20)];
    [(1 # 320); (3 # 320); (3 # 80); (3 # 20); (3 # 5); (1 # 5)];
    [(1 # 1280); (3 # 1280); (3 # 320); (3 # 80); (3 # 20); (4 # 5)]])%Q.

(* The truncated 1/2-geometric mechanism over {0..5}, keyed by d. *)
Definition online_model_k2_query_rows : list (list Q) :=
  ([[(2 # 3); (1 # 6); (1 # 12); (1 # 24); (1 # 48); (1 # 48)];
    [(1 # 3); (1 # 3); (1 # 6); (1 # 12); (1 # 24); (1 # 24)];
    [(1 # 6); (1 # 6); (1 # 3); (1 # 6); (1 # 12); (1 # 12)];
    [(1 # 12); (1 # 12); (1 # 6); (1 # 3); (1 # 6); (1 # 6)];
    [(1 # 24); (1 # 24); (1 # 12); (1 # 6); (1 # 3); (1 # 3)];
    [(1 # 48); (1 # 48); (1 # 24); (1 # 12); (1 # 6); (2 # 3)]])%Q.

(* t' <- Geom(t); for i = 0, 1: f' <- Geom(d); if f' > t' then ⊤; stop else ⊥. *)
Definition online_model_k2 : stmt :=
  SSeq (SSample 2 (DTable (AVar 1) 0 0 online_model_k2_threshold_rows))
       (SFor 3 2
          (SSeq (SSample 4 (DTable (AVar 0) 0 0 online_model_k2_query_rows))
                (SIf (BLt (AVar 2) (AVar 4)) (SSeq STop SStop) SBot))).

(* Input vectors [d; t], d and t in 0..5 (index 6 d + t). *)
Definition online_model_k2_inputs : list (list Z) :=
  ([[0; 0]; [0; 1]; [0; 2]; [0; 3]; [0; 4]; [0; 5];
    [1; 0]; [1; 1]; [1; 2]; [1; 3]; [1; 4]; [1; 5];
    [2; 0]; [2; 1]; [2; 2]; [2; 3]; [2; 4]; [2; 5];
    [3; 0]; [3; 1]; [3; 2]; [3; 3]; [3; 4]; [3; 5];
    [4; 0]; [4; 1]; [4; 2]; [4; 3]; [4; 4]; [4; 5];
    [5; 0]; [5; 1]; [5; 2]; [5; 3]; [5; 4]; [5; 5]])%Z.

(* The output sequences; every run puts all its mass on them (checked). *)
Definition online_model_k2_outs : list (list oval) :=
  [[OTop]; [OBot; OTop]; [OBot; OBot]].

(** ** The claim: (ln(943/292), 0)-DP of the program, d private (Δ 1), t public *)
(* A rational lower bound on e^ε (exact). *)
Lemma online_model_k2_exp_lower : (Q2R (943 # 292) <= exp (ln (943 / 292)))%R.
Proof. exp_exact. Qed.

(** ** The computation Coq checks once (by [vm_compute], again by the kernel at [Qed]) *)
Lemma online_model_k2_checked :
  check_prog_pointwise [1; 0]%Z online_model_k2_inputs online_model_k2 5
    online_model_k2_outs (943 # 292) = true.
Proof. vm_cast_no_check (eq_refl true). Qed.

Theorem online_model_k2_dp :
  dp_prog [1; 0]%Z online_model_k2_inputs online_model_k2 5 (ln (943 / 292)) 0.
Proof.
  apply (dp_prog_of_check_pointwise _ _ _ _ online_model_k2_outs _ (943 # 292)).
  - exact online_model_k2_exp_lower.
  - exact online_model_k2_checked.
Qed.

(** ** The bound is tight: not (ln(3229/1000), 0)-DP *)
(* Inputs 18 = [3; 0] and 24 = [4; 0], event {[⊥; ⊥]}. *)
Lemma online_model_k2_exp_upper : (exp (ln (3229 / 1000)) <= Q2R (3229 # 1000))%R.
Proof. exp_exact_upper. Qed.

Lemma online_model_k2_witness :
  check_prog_witness [1; 0]%Z online_model_k2_inputs online_model_k2 5
    (3229 # 1000) 0 18 24 [[OBot; OBot]] = true.
Proof. vm_cast_no_check (eq_refl true). Qed.

Theorem online_model_k2_not_dp :
  ~ dp_prog [1; 0]%Z online_model_k2_inputs online_model_k2 5 (ln (3229 / 1000)) 0.
Proof.
  apply (not_dp_prog_of_witness_at _ _ _ _ _ _ (3229 # 1000) 0 18 24 [[OBot; OBot]]).
  - apply q2r_0.
  - exact online_model_k2_exp_upper.
  - exact online_model_k2_witness.
Qed.
