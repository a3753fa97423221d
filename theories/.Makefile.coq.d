Sums.vo Sums.glob Sums.v.beautified Sums.required_vo: Sums.v 
Sums.vio: Sums.v 
Sums.vos Sums.vok Sums.required_vos: Sums.v 
Mechanism.vo Mechanism.glob Mechanism.v.beautified Mechanism.required_vo: Mechanism.v Sums.vo
Mechanism.vio: Mechanism.v Sums.vio
Mechanism.vos Mechanism.vok Mechanism.required_vos: Mechanism.v Sums.vos
Neighbours.vo Neighbours.glob Neighbours.v.beautified Neighbours.required_vo: Neighbours.v 
Neighbours.vio: Neighbours.v 
Neighbours.vos Neighbours.vok Neighbours.required_vos: Neighbours.v 
DP.vo DP.glob DP.v.beautified DP.required_vo: DP.v Mechanism.vo
DP.vio: DP.v Mechanism.vio
DP.vos DP.vok DP.required_vos: DP.v Mechanism.vos
Checker.vo Checker.glob Checker.v.beautified Checker.required_vo: Checker.v Sums.vo Mechanism.vo
Checker.vio: Checker.v Sums.vio Mechanism.vio
Checker.vos Checker.vok Checker.required_vos: Checker.v Sums.vos Mechanism.vos
CheckerSound.vo CheckerSound.glob CheckerSound.v.beautified CheckerSound.required_vo: CheckerSound.v Sums.vo Mechanism.vo DP.vo Checker.vo
CheckerSound.vio: CheckerSound.v Sums.vio Mechanism.vio DP.vio Checker.vio
CheckerSound.vos CheckerSound.vok CheckerSound.required_vos: CheckerSound.v Sums.vos Mechanism.vos DP.vos Checker.vos
Refutation.vo Refutation.glob Refutation.v.beautified Refutation.required_vo: Refutation.v Sums.vo Mechanism.vo DP.vo Checker.vo
Refutation.vio: Refutation.v Sums.vio Mechanism.vio DP.vio Checker.vio
Refutation.vos Refutation.vok Refutation.required_vos: Refutation.v Sums.vos Mechanism.vos DP.vos Checker.vos
ExpBounds.vo ExpBounds.glob ExpBounds.v.beautified ExpBounds.required_vo: ExpBounds.v 
ExpBounds.vio: ExpBounds.v 
ExpBounds.vos ExpBounds.vok ExpBounds.required_vos: ExpBounds.v 
Prelude.vo Prelude.glob Prelude.v.beautified Prelude.required_vo: Prelude.v Sums.vo Mechanism.vo Neighbours.vo DP.vo Checker.vo CheckerSound.vo Refutation.vo ExpBounds.vo
Prelude.vio: Prelude.v Sums.vio Mechanism.vio Neighbours.vio DP.vio Checker.vio CheckerSound.vio Refutation.vio ExpBounds.vio
Prelude.vos Prelude.vok Prelude.required_vos: Prelude.v Sums.vos Mechanism.vos Neighbours.vos DP.vos Checker.vos CheckerSound.vos Refutation.vos ExpBounds.vos
PreludeInterval.vo PreludeInterval.glob PreludeInterval.v.beautified PreludeInterval.required_vo: PreludeInterval.v Prelude.vo
PreludeInterval.vio: PreludeInterval.v Prelude.vio
PreludeInterval.vos PreludeInterval.vok PreludeInterval.required_vos: PreludeInterval.v Prelude.vos
