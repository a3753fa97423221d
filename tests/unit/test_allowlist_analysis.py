"""The allow-list's mathcomp-analysis axioms: exact names, only for a claim about continuous noise."""
from obligations.certify import allowlist

ANALYSIS = ["mathcomp.classical.boolp.propositional_extensionality",
            "mathcomp.classical.boolp.functional_extensionality_dep",
            "mathcomp.classical.boolp.constructive_indefinite_description",
            "Coq.Logic.Epsilon.epsilon_statement"]


def test_analysis_axioms_allowed_only_for_continuous_noise() -> None:
    assert allowlist.refused(ANALYSIS, uses_interval=False, uses_analysis=True) == []
    assert allowlist.refused(ANALYSIS, uses_interval=True) == ANALYSIS
    assert allowlist.refused(ANALYSIS, uses_interval=False) == ANALYSIS


def test_analysis_axioms_matched_exactly() -> None:
    near = ["boolp.propositional_extensionality", "mathcomp.classical.boolp.classic",
            "Coq.Logic.Epsilon.epsilon", "Coq.Logic.ClassicalEpsilon.constructive_indefinite_description"]
    assert allowlist.refused(near, uses_interval=True, uses_analysis=True) == near


def test_analysis_does_not_allow_the_primitive_operations() -> None:
    prim = sorted(allowlist.PRIMITIVE)[:3]
    assert allowlist.refused(prim, uses_interval=False, uses_analysis=True) == prim


def test_two_axioms_of_one_short_name_resolved_by_the_longer_printed_name() -> None:
    env = ["mathcomp.classical.boolp.functional_extensionality_dep",
           "Coq.Logic.FunctionalExtensionality.functional_extensionality_dep"]
    printed = ["functional_extensionality_dep", "FunctionalExtensionality.functional_extensionality_dep"]
    assert allowlist.full_names(printed, env) == (env, [])
    # alone, the short name is ambiguous: refused, never guessed
    assert allowlist.full_names(["functional_extensionality_dep"], env) == ([], ["functional_extensionality_dep"])
    # a third axiom of that name leaves it ambiguous
    evil = env + ["Certs.x.functional_extensionality_dep"]
    assert allowlist.full_names(printed, evil)[1] == ["functional_extensionality_dep"]
