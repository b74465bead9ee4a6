//! For the unit tests: an order and its declarative twin, judged together.

use crate::judge;

/// Each case is an order phrased as a fact and its declarative twin: the
/// first must be flagged with a reason of `family`, the second stay benign.
pub(crate) fn pairs(family: &str, cases: &[(&str, &str)]) {
    for (order, fact) in cases {
        let v = judge(order);
        assert!(
            v.instruction && v.reasons.iter().any(|r| r.starts_with(family)),
            "not flagged as {family}: {order:?} ({:?})",
            v.reasons
        );
        let v = judge(fact);
        assert!(!v.instruction, "false positive: {fact:?} ({:?})", v.reasons);
    }
}
