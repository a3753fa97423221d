"""Names that end up in Coq: checked before anything is rendered."""
from __future__ import annotations

import keyword
import re

COQ_IDENT = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,62}$")

# Coq's keywords and the vernacular/tactic words that cannot be identifiers.
COQ_KEYWORDS = frozenset("""
_ Axiom CoFixpoint Definition Fixpoint Hypothesis IF Parameter Prop SProp Set Theorem Type Variable
as at by cofix else end exists exists2 fix for forall fun if in let match mod return then using where with
Lemma Proof Qed Admitted Defined Abort Require Import Export From Module Section End Let Local Global
Inductive CoInductive Record Structure Class Instance Context Notation Ltac Tactic Hint Print Check
Eval Compute Goal Example Remark Fact Corollary Proposition Open Close Scope Arguments
""".split())

# Names the generated file or our prelude already uses; a spec may not take them.
RESERVED = frozenset("""
dp distr subdistr fmech FMech n_in n_out rows entry prob pr event everything tabulate
nb_all nb_adjacent nb_list check_distr check_subdistr check_pointwise check_hockey check_witness
pr_q in_list qsum rsum exp ln x y Q R Z nat bool true false
""".split())


def coq_name_problem(name: str) -> str | None:
    """Why `name` cannot be a Coq identifier of ours, or None if it can."""
    if not COQ_IDENT.match(name):
        return ("must start with a letter and contain only letters, digits and '_' "
                "(at most 63 characters)")
    if name in COQ_KEYWORDS or keyword.iskeyword(name):
        return f"{name!r} is a reserved word"
    if name in RESERVED:
        return f"{name!r} is already used by the Coq library"
    return None
