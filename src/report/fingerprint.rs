//! The fingerprint of a finding's text, shared by baselines and SARIF's `partialFingerprints`.

/// A stable hash of a statement's text with every run of whitespace made one space: re-indenting
/// or re-wrapping a statement keeps its fingerprint. FNV-1a (64 bits), written out here because
/// the standard library's hashers may change between releases and baselines must not.
pub fn fingerprint(statement: &[u8]) -> String {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut hash = OFFSET;
    let mut feed = |b: u8| {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(PRIME);
    };
    let mut pending_space = false;
    let mut started = false;
    for &b in statement {
        if b.is_ascii_whitespace() {
            pending_space = started;
            continue;
        }
        if pending_space {
            feed(b' ');
            pending_space = false;
        }
        started = true;
        feed(b);
    }
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_ignore_whitespace_but_not_text() {
        let a = fingerprint(b"asm(\"add.s32 %0, %1, %2;\" : \"=r\"(d) : \"r\"(a), \"r\"(b))");
        let wrapped = fingerprint(
            b"  asm(\"add.s32 %0, %1, %2;\"\n      : \"=r\"(d)\r\n      : \"r\"(a),   \"r\"(b))  ",
        );
        assert_eq!(a, wrapped);
        assert_ne!(
            a,
            fingerprint(b"asm(\"add.s32 %0, %2, %1;\" : \"=r\"(d) : \"r\"(a), \"r\"(b))")
        );
        assert_eq!(a.len(), 16);
    }

    #[test]
    fn fingerprints_are_stable_across_releases() {
        // FNV-1a of "" and of "a": the published test vectors of the algorithm.
        assert_eq!(fingerprint(b""), "cbf29ce484222325");
        assert_eq!(fingerprint(b"a"), "af63dc4c8601ec8c");
    }
}
