(** * Differential privacy, the notion every kind of mechanism instantiates

    Whatever a mechanism is (a table of probabilities, a program, a pipeline
    with continuous noise), (ε, δ)-differential privacy says the same thing:
    for neighbouring inputs [x ~ x'] and every event [S],
    Pr[M(x) ∈ S] ≤ e^ε · Pr[M(x') ∈ S] + δ.  [dp_with nb P eps delta] is that
    statement for [P x S] = Pr[M(x) ∈ S].

    Each model of mechanism has its own short definition, the one its generated
    files state, and beside it a lemma that it is this one:
    - finite tables: [dp] (Finite/DP.v; [dp_iff_dp_with]), tables of reals [rdp]
      (Finite/RealTable.v; [rdp_iff_dp_with]), CW-privacy [cw_dp] (Finite/CW.v;
      [cw_dp_iff_dp_with]);
    - programs: [dp_prog] (Program/ProgramDP.v; [dp_prog_iff_dp_with]), any runs
      [dp_runs] (Program/RunsMech.v; [dp_runs_iff_dp_with]), programs on streams of
      every length [dp_stream] (Coupling/SeqTape.v; [dp_stream_iff_dp_with]), programs
      with a neighbour relation for every length [dp_all_k] (Coupling/TapeSem.v;
      [dp_all_k_iff_dp_with]);
    - the snapping mechanism: [snap_dp] (Noise/SnapDP.v; [snap_dp_iff_dp_with]),
      pure DP (δ = 0) output by output. *)
From Coq Require Import Reals.
Local Open Scope R_scope.

(** (ε, δ)-DP of the probabilities [P x S] for the neighbour relation [nb]. *)
Definition dp_with {I E : Type} (nb : I -> I -> Prop) (P : I -> E -> R) (eps delta : R) : Prop :=
  forall x x', nb x x' -> forall S : E, P x S <= exp eps * P x' S + delta.
