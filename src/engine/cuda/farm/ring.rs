//! The farm's exchange ring as the host reads and writes it between time slices, so that farms on
//! several devices exchange learned nogoods: what the searches of one farm exported since the
//! host last looked, and the entries the host writes for them to import.
//!
//! The ring (kernels/farm.cu, `x_seq`, `x_meta`, `x_lits`) has `xcap` entries; exchange number
//! `n` lives in entry `n % xcap` once `x_seq` there is `n + 1`; `x_meta` is the writer's search
//! number `<< 8 | length`; `x_lits` holds `FARM_XLEN` literal slots an entry. The control word
//! `FC_XHEAD` counts the numbers handed out. No kernel runs while the host reads or writes, so an
//! entry is either whole or was dropped by its writer (its `x_seq` then does not match).
//! Entries the host writes carry the origin [`HOST`]: the host does not read them back.

use super::tables::{HOST, XLEN};

/// Where entries `first .. first + count` lie in a ring of `xcap` entries: at most two runs
/// `(start, len)` (the second after the wrap), `count` at most `xcap`.
pub fn runs(first: u32, count: u32, xcap: u32) -> Vec<(usize, usize)> {
    debug_assert!(count <= xcap);
    let start = (first % xcap) as usize;
    let (count, xcap) = (count as usize, xcap as usize);
    let head = count.min(xcap - start);
    [(start, head), (0, count - head)].into_iter().filter(|&(_, n)| n > 0).collect()
}

/// The numbers the host should read of a ring whose head is `head`, having read up to `cursor`
/// before: at most the last `xcap` (older ones were overwritten).
pub fn unread(cursor: u32, head: u32, xcap: u32) -> (u32, u32) {
    let count = head.wrapping_sub(cursor);
    if count > xcap { (head.wrapping_sub(xcap), xcap) } else { (cursor, count) }
}

/// The nogoods of entries `first, first + 1, ...`, given their `seq`, `meta` and `lits` words in
/// that order: whole entries the searches wrote, well formed (1 to `XLEN` literals, no variable
/// twice, every variable below `nvars`).
pub fn decode(first: u32, seq: &[u32], meta: &[u32], lits: &[u32], nvars: u32) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    for (k, (&sq, &m)) in seq.iter().zip(meta).enumerate() {
        let (origin, len) = (m >> 8, (m & 0xff) as usize);
        if sq != first.wrapping_add(k as u32).wrapping_add(1) || origin == HOST || len == 0 || len > XLEN {
            continue;
        }
        let l = &lits[k * XLEN..k * XLEN + len];
        let vars_ok =
            l.iter().enumerate().all(|(i, &x)| x >> 1 < nvars && l[..i].iter().all(|&y| y >> 1 != x >> 1));
        if vars_ok {
            out.push(l.to_vec());
        }
    }
    out
}

/// The `seq`, `meta` and `lits` words of entries `first, first + 1, ...` holding `nogoods` (each
/// of 1 to `XLEN` literals), written by the host.
pub fn encode(first: u32, nogoods: &[Vec<u32>]) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let mut seq = Vec::with_capacity(nogoods.len());
    let mut meta = Vec::with_capacity(nogoods.len());
    let mut lits = vec![0u32; nogoods.len() * XLEN];
    for (k, g) in nogoods.iter().enumerate() {
        debug_assert!((1..=XLEN).contains(&g.len()));
        seq.push(first.wrapping_add(k as u32).wrapping_add(1));
        meta.push(HOST << 8 | g.len() as u32);
        lits[k * XLEN..k * XLEN + g.len()].copy_from_slice(g);
    }
    (seq, meta, lits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_wrap_around_the_ring() {
        assert_eq!(runs(3, 4, 16), vec![(3, 4)]);
        assert_eq!(runs(14, 4, 16), vec![(14, 2), (0, 2)]);
        assert_eq!(runs(16, 16, 16), vec![(0, 16)]);
        assert_eq!(runs(5, 0, 16), vec![]);
        assert_eq!(runs(u32::MAX, 2, 16), vec![(15, 1), (0, 1)]);
    }

    #[test]
    fn unread_keeps_the_last_lap() {
        assert_eq!(unread(0, 10, 16), (0, 10));
        assert_eq!(unread(2, 40, 16), (24, 16));
        assert_eq!(unread(u32::MAX - 1, 3, 16), (u32::MAX - 1, 5));
    }

    #[test]
    fn decode_reads_what_encode_wrote_but_not_its_own() {
        let goods = vec![vec![4, 7], vec![9], vec![2, 5, 8, 11, 12, 14, 16, 19]];
        let (seq, meta, lits) = encode(40, &goods);
        assert!(decode(40, &seq, &meta, &lits, 20).is_empty(), "the host's own entries are skipped");
        // The same words as a search (number 3) writes them.
        let meta: Vec<u32> = meta.iter().map(|m| 3 << 8 | (m & 0xff)).collect();
        assert_eq!(decode(40, &seq, &meta, &lits, 20), goods);
        // A stale entry (another lap), a dropped one, a variable out of range, a variable twice.
        let mut bad = seq.clone();
        bad[0] = 40 + 1 + 16;
        assert_eq!(decode(40, &bad, &meta, &lits, 20), goods[1..].to_vec());
        assert_eq!(decode(40, &seq, &meta, &lits, 9), goods[..2].to_vec());
        let mut twice = lits.clone();
        twice[1] = 5;
        assert_eq!(decode(40, &seq, &meta, &twice, 20), goods[1..].to_vec());
    }
}
