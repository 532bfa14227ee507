//! What the search farm's kernel reads and writes, built on the host: the problem's arrays, read
//! by every search, and the searches' state, a slice of each array a search, in the order of the
//! pointers of `struct FarmArgs` (kernels/farm.cu, mirrored by [`FarmArgs`]).
//!
//! Everything is 32-bit words on the device (an `i64` is two, a `float` zero is a zero word), so
//! one buffer type carries them all and the kernel's pointers are their addresses.

use crate::engine::cuda::layout::{FARM_POINTERS, FarmArgs, nogoods_containing, occurrences};
use crate::engine::scores::initial_scores;
use crate::engine::signs::Signs;
use crate::nogoods::{Csr, Lit, Problem};
use crate::solve::config::{Heuristic, SignDef};

/// Literals an exchanged nogood may have (`FARM_XLEN`).
pub const XLEN: usize = 8;
/// Entries a chunk of a literal's watch list holds (`FARM_CHUNK`), and its words (`FARM_CW`): a
/// nogood and its blocker an entry, the next chunk's number and the fill.
pub const CHUNK: usize = 32;
pub const CHUNK_WORDS: usize = 2 * CHUNK + 2;
/// Words of a search's scalars (`FS_WORDS`) and of the control block (`FC_WORDS`).
pub const SEARCH_WORDS: usize = 48;
pub const CONTROL_WORDS: usize = 8;
/// `FARM_NONE`: no search has found a model.
pub const NONE: u32 = u32::MAX;
/// The origin an exchange entry the host writes carries (no search has this number; see
/// [`super::ring`]).
pub const HOST: u32 = 0xff_ffff;

/// A search's scalar words that the host reads (kernels/farm.cu, `FS_*`).
#[derive(Clone, Copy)]
pub enum Word {
    Status = 3,
    Conflicts = 14,
    Decisions = 16,
    Props = 18,
    Restarts = 20,
    Exported = 21,
    Imported = 22,
    /// Learned nogoods that found no room.
    Dropped = 23,
    /// Clock cycles (64-bit) in each part of the step.
    TimePropagate = 32,
    TimeAnalyze = 34,
    TimeBackjump = 36,
    TimeRestart = 38,
    TimeDecide = 40,
    /// Learned nogoods deleted (64-bit), and the deletions.
    Deleted = 42,
    Reduces = 44,
}

/// A search's status word (`FARM_*`).
pub const RUNNING: u32 = 0;
pub const SAT: u32 = 1;
pub const UNSAT: u32 = 2;
pub const FAILED: u32 = 3;

/// Control words (`FC_*`).
pub const CTL_WINNER: usize = 0;
pub const CTL_UNSAT: usize = 1;
pub const CTL_XHEAD: usize = 2;
/// Split mode within the farm: cubes taken, and cubes refuted.
pub const CTL_CUBE_NEXT: usize = 3;
pub const CTL_CUBES_DONE: usize = 4;
/// Enumeration: the model ring's entries claimed by the searches, and read by the host.
pub const CTL_MHEAD: usize = 5;
pub const CTL_MREAD: usize = 6;

/// Bytes the model ring takes at most (enumeration), and entries at least.
const RING_BYTES: u64 = 64 << 20;
const RING_MIN: u32 = 64;

/// One array of `FarmArgs`: its words, or a length of zero words.
#[derive(Clone, Debug)]
pub enum Buf {
    Words(Vec<u32>),
    Zeros(usize),
}

impl Buf {
    pub fn len(&self) -> usize {
        match self {
            Buf::Words(w) => w.len(),
            Buf::Zeros(n) => *n,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// How the farm is set up: its searches and the room each has for learned nogoods.
#[derive(Clone, Debug)]
pub struct FarmConfig {
    pub searches: u32,
    /// Literal slots of a search's learned nogoods, and how many nogoods.
    pub arena: u32,
    pub max_learned: u32,
    /// Entries of the exchange's ring.
    pub xcap: u32,
    /// Conflicts of the Luby unit between restarts.
    pub restart_base: u32,
    /// Whether the searches exchange learned nogoods.
    pub share: bool,
    pub seed: u32,
    /// How long a launch runs each search (ns).
    pub slice_ns: u64,
    /// Literals every search assumes, at level 0 (a part of the space, where farms on several
    /// devices divide it): a model then has them, and a proof that there is none holds under
    /// them.
    pub cube: Vec<Lit>,
    /// Split mode within the farm: cubes of equal length, disjoint and together the whole space
    /// (under `cube`), which the searches take one at a time and decide first; the farm proves
    /// that there is no model once each is refuted. Empty: every search on the whole space.
    pub parts: Vec<Vec<Lit>>,
    /// Enumeration (with `parts`, not sharing): every model goes to the model ring, and the
    /// search that found it goes on.
    pub enumerate: bool,
    /// The model ring's entries (0: as many as 64 MiB hold, at most 2^20).
    pub ring: u32,
    /// Words of shared memory a search may keep its most read arrays in during a slice
    /// ([`shared_plan`]; the farm sets it from the device: 0, none).
    pub shared_words: u32,
}

impl FarmConfig {
    /// Chunks of a search's pool: two a learned nogood, so that every watch may have a list of
    /// its own (on programs of many variables most lists hold one or two entries), and lists
    /// that moves left half empty fit (a full pool rebuilds the lists at the next restart).
    pub fn chunks(&self) -> u32 {
        (2 * self.max_learned).max(64)
    }

    pub fn new(searches: u32, share: bool, seed: u32) -> FarmConfig {
        FarmConfig {
            searches,
            arena: 1 << 16,
            max_learned: 1 << 13,
            xcap: 1 << 14,
            restart_base: 100,
            share,
            seed,
            slice_ns: 20_000_000,
            cube: Vec::new(),
            parts: Vec::new(),
            enumerate: false,
            ring: 0,
            shared_words: 0,
        }
    }

    /// The model ring's words an entry (a bit an atom, `0..=atoms`, then the number of the search
    /// that found it) and entries (none without enumeration).
    pub fn ring_size(&self, atoms: u32) -> (u32, u32) {
        let words = (atoms + 1).div_ceil(32) + 1;
        if !self.enumerate {
            return (words, 0);
        }
        if self.ring > 0 {
            return (words, self.ring);
        }
        let cap = (RING_BYTES / (4 * u64::from(words))).clamp(u64::from(RING_MIN), 1 << 20);
        (words, cap as u32)
    }
}

/// The farm's arrays and scalars, ready to upload.
pub struct FarmTables {
    /// In the order of `FarmArgs`' pointers ([`FARM_POINTERS`]).
    pub bufs: Vec<Buf>,
    /// `FarmArgs` with every pointer 0: the host fills them in after the upload.
    pub args: FarmArgs,
}

fn i64_words(xs: impl IntoIterator<Item = i64>) -> Vec<u32> {
    xs.into_iter().flat_map(|x| [x as u32, (x as u64 >> 32) as u32]).collect()
}

/// The weight constraints' occurrence lists: literal -> `[constraint, term << 2 | kind]` pairs,
/// kind 0 the term true, 1 the term false, 2 W true, 3 W false.
fn weight_occurrences(p: &Problem) -> (Vec<u32>, Vec<u32>) {
    let w = &p.weights;
    let nl = 2 * p.num_vars as usize;
    let mut lists: Vec<Vec<[u32; 2]>> = vec![Vec::new(); nl];
    for c in 0..w.len() {
        let head = w.lit[c].0 as usize;
        lists[head].push([c as u32, 2]);
        lists[head ^ 1].push([c as u32, 3]);
        for j in w.range(c) {
            let l = w.lits[j].0 as usize;
            lists[l].push([c as u32, (j as u32) << 2]);
            lists[l ^ 1].push([c as u32, (j as u32) << 2 | 1]);
        }
    }
    let mut start = Vec::with_capacity(nl + 1);
    let mut entries = Vec::new();
    start.push(0);
    for l in lists {
        entries.extend(l.iter().flatten());
        start.push((entries.len() / 2) as u32);
    }
    (start, entries)
}

/// The unfounded-set check's tables (`u_cyc` to `u_bound`, kernels/farm.cu), all empty for a
/// tight program. Its bodies are numbered among those that support a cyclic atom; for each, its
/// literal, the cyclic atoms of its positive literals and the cyclic atoms it supports, and for a
/// weight or disjunctive body its terms and bound.
fn unfounded_tables(p: &Problem) -> [Vec<u32>; 15] {
    if p.is_tight() {
        return Default::default();
    }
    let n = p.num_vars as usize;
    let bt = &p.bodies;
    let cyclic: Vec<bool> = (0..n).map(|v| p.is_cyclic(v as u32)).collect();
    // Body numbers, in the order the cyclic atoms' supports first name them.
    let mut number = vec![u32::MAX; bt.len()];
    let mut bodies = Vec::new();
    let mut sup = Vec::new();
    for x in (0..n).filter(|&x| cyclic[x]) {
        for &b in p.supports(x as u32) {
            if number[b as usize] == u32::MAX {
                number[b as usize] = bodies.len() as u32;
                bodies.push(b as usize);
            }
            sup.push((x, number[b as usize]));
        }
    }
    let (mut pos, mut heads, mut fals, mut pocc) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut sum, mut bound) = (Vec::new(), vec![0u32; bodies.len()]);
    for (i, &b) in bodies.iter().enumerate() {
        for l in bt.def(b).0.iter().filter(|l| l.is_pos() && cyclic[l.var() as usize]) {
            pos.push((i, l.var()));
            pocc.push((l.var() as usize, i as u32));
        }
        heads.extend(bt.supported(b).filter(|&h| cyclic[h as usize]).map(|h| (i, h)));
        if bt.lit[b] != Lit::TRUE {
            fals.push(((!bt.lit[b]).index(), i as u32));
        }
        // A weight body can stay true while a false term leaves it leaning on the atoms it
        // supports: its sources go when a term becomes false too, as the CPU engine's do.
        if !bt.is_normal(b) {
            let (lits, ws) = bt.def(b);
            fals.extend(lits.iter().map(|&l| ((!l).index(), i as u32)));
            sum.extend(lits.iter().zip(ws).map(|(l, &w)| (i, [l.0, w as u32])));
            bound[i] = bt.bound[b].max(0) as u32;
        }
    }
    let blit = bodies.iter().map(|&b| bt.lit[b].0).collect();
    let (sup_start, sup) = Csr::from_pairs(n, sup.into_iter()).into_parts();
    let (pos_start, pos) = Csr::from_pairs(bodies.len(), pos.into_iter()).into_parts();
    let (head_start, head) = Csr::from_pairs(bodies.len(), heads.into_iter()).into_parts();
    let (fals_start, fals) = Csr::from_pairs(2 * n, fals.into_iter()).into_parts();
    let (pocc_start, pocc) = Csr::from_pairs(n, pocc.into_iter()).into_parts();
    // Per body its `[literal, weight]` terms, a pair an entry.
    let (sum_start, sum) = Csr::from_pairs(bodies.len(), sum.into_iter()).into_parts();
    let sum = sum.into_iter().flatten().collect();
    let cyc = cyclic.iter().map(|&c| u32::from(c)).collect();
    [
        cyc, sup_start, sup, blit, pos_start, pos, head_start, head, fals_start, fals, pocc_start, pocc,
        sum_start, sum, bound,
    ]
}

/// A search's arrays that a slice may keep in shared memory, the most read first: kernels/farm.cu's
/// `FARM_SM_*` in their order (a test checks the names), each as long as its global slice (the
/// nogoods' counts one a nogood, the others one a variable).
pub const SHARED_ORDER: [&str; 9] =
    ["val", "cnt", "seen", "act", "level", "reason", "tpos", "trail", "phase"];

/// Which arrays of [`SHARED_ORDER`] a search keeps in `budget` words of shared memory: each in
/// turn that still fits (a bit each, by its place in the order), and the words they take.
pub fn shared_plan(nvars: u32, ngoods: u32, budget: u32) -> (u32, u32) {
    let (mut mask, mut words) = (0u32, 0u32);
    for (i, name) in SHARED_ORDER.iter().enumerate() {
        let len = if *name == "cnt" { ngoods } else { nvars };
        if u64::from(words) + u64::from(len) <= u64::from(budget) {
            mask |= 1 << i;
            words += len;
        }
    }
    (mask, words)
}

/// Bytes of device memory one search's state takes.
pub fn bytes_per_search(p: &Problem, c: &FarmConfig) -> u64 {
    let (n, g, w) =
        (p.num_vars as u64, p.store.offsets.len().saturating_sub(1) as u64, p.weights.len() as u64);
    // The unfounded-set check's four arrays a search where the program is not tight.
    let loops = if p.is_tight() { 0 } else { 4 * n };
    let words = 9 * n
        + loops
        + 2
        + (n / 32 + 1)
        + (n + XLEN as u64)
        + (n + 1)
        + g
        + 5 * w
        + 2 * n
        + u64::from(c.arena)
        + CHUNK_WORDS as u64 * u64::from(c.chunks())
        + 3 * u64::from(c.max_learned)
        + SEARCH_WORDS as u64;
    4 * words
}

impl FarmTables {
    /// The farm's arrays for `c.searches` searches of `p`.
    pub fn new(p: &Problem, c: &FarmConfig) -> FarmTables {
        let s = c.searches as usize;
        let n = p.num_vars as usize;
        let st = &p.store;
        let g = st.offsets.len().saturating_sub(1);
        let w = &p.weights;
        let nw = w.len();
        let (w_occ_start, w_occ) = weight_occurrences(p);
        // The binary nogoods as `[nogood, other literal]` entries per literal (implications),
        // and per literal the longer ones it occurs in (counted).
        let nl = 2 * n;
        let (bin_start, bin) = occurrences::<2>(nl, st, st.class(2), 0);
        let (occ_start, occ) = nogoods_containing(nl, st, st.class(3).start..st.len());
        let totals: Vec<i64> = (0..nw).map(|k| w.total(k)).collect();
        let (arena, ml, x) = (c.arena as usize, c.max_learned as usize, c.xcap as usize);
        let chunks = c.chunks() as usize;
        let (mwords, mcap) = c.ring_size(p.num_atoms);
        let signs = Signs::new(p, SignDef::Asp, 0);
        debug_assert!(!c.enumerate || (!c.share && !c.parts.is_empty()), "enumeration in cubes, alone");
        let mut ctl = vec![0u32; CONTROL_WORDS];
        ctl[CTL_WINNER] = NONE;
        let mut bufs = vec![
            Buf::Words(st.offsets.clone()),
            Buf::Words(st.lits.clone()),
            Buf::Words(occ_start),
            Buf::Words(occ),
            Buf::Words(bin_start),
            Buf::Words(bin),
            Buf::Words(w.lit.iter().map(|l| l.0).collect()),
            Buf::Words(i64_words(w.bound.iter().copied())),
            Buf::Words(i64_words(totals)),
            Buf::Words(w.start.clone()),
            Buf::Words(w.lits.iter().map(|l| l.0).collect()),
            Buf::Words(i64_words(w.weights.iter().copied())),
            Buf::Words(w_occ_start),
            Buf::Words(w_occ),
            // A unit nogood {l} makes l false: the cube's literals are their negations'.
            Buf::Words(st.units.iter().map(|l| l.0).chain(c.cube.iter().map(|&l| (!l).0)).collect()),
            // cubes: the literals each part makes true
            Buf::Words(c.parts.iter().flatten().map(|l| l.0).collect()),
            // sign: 1 true, 2 false
            Buf::Words((0..p.num_vars).map(|v| if signs.lit(v).is_pos() { 1 } else { 2 }).collect()),
            // act0: floats
            Buf::Words(
                initial_scores(p, Heuristic::Activity, false, 0)
                    .iter()
                    .map(|&x| (x as f32).to_bits())
                    .collect(),
            ),
        ];
        bufs.extend(unfounded_tables(p).map(Buf::Words));
        let loops = if p.is_tight() { 0 } else { s * n };
        bufs.extend([
            // val, level, reason, tpos, trail, lim, seen, act, bmax, phase, learnt, stamp
            Buf::Zeros(s * n),
            Buf::Zeros(s * n),
            Buf::Zeros(s * n),
            Buf::Zeros(s * n),
            Buf::Zeros(s * n),
            Buf::Zeros(s * (n + 1)),
            Buf::Zeros(s * n),
            Buf::Zeros(s * n),
            Buf::Zeros(s * (n / 32 + 1)),
            Buf::Zeros(s * n),
            Buf::Zeros(s * (n + XLEN)),
            Buf::Zeros(s * (n + 1)),
            // cnt, wsum (i64 pairs), whead
            Buf::Zeros(s * g),
            Buf::Zeros(s * 4 * nw),
            Buf::Zeros(s * nw),
            // u_src, u_flag, u_todo, u_work
            Buf::Zeros(loops),
            Buf::Zeros(loops),
            Buf::Zeros(loops),
            Buf::Zeros(loops),
            // l_head
            Buf::Zeros(s * 2 * n),
            // l_chunk, l_lits; l_start, l_len, l_lbd; st
            Buf::Zeros(s * chunks * CHUNK_WORDS),
            Buf::Zeros(s * arena),
            Buf::Zeros(s * ml),
            Buf::Zeros(s * ml),
            Buf::Zeros(s * ml),
            Buf::Zeros(s * SEARCH_WORDS),
            // x_seq (FARM_NONE: never written), x_meta, x_lits, ctl
            Buf::Words(vec![NONE; x]),
            Buf::Zeros(x),
            Buf::Zeros(x * XLEN),
            Buf::Words(ctl),
            // m_ring
            Buf::Zeros(mcap as usize * mwords as usize),
        ]);
        debug_assert_eq!(bufs.len(), FARM_POINTERS.len());
        let (smem, smem_words) = shared_plan(p.num_vars, g as u32, c.shared_words);
        let args = FarmArgs {
            ptrs: [0; FARM_POINTERS.len()],
            slice_ns: c.slice_ns,
            nvars: p.num_vars,
            ngoods: g as u32,
            nweights: nw as u32,
            nunits: (st.units.len() + c.cube.len()) as u32,
            searches: c.searches,
            arena: c.arena,
            max_learned: c.max_learned,
            xcap: c.xcap,
            seed: c.seed,
            restart_base: c.restart_base,
            flags: u32::from(c.share) | u32::from(c.enumerate) << 1 | u32::from(!p.is_tight()) << 2,
            chunks: chunks as u32,
            ncubes: c.parts.len() as u32,
            cube_len: c.parts.first().map_or(0, |p| p.len() as u32),
            mcap,
            mwords,
            smem,
            smem_words,
        };
        debug_assert!(c.parts.iter().all(|p| p.len() == args.cube_len as usize), "parts of one length");
        FarmTables { bufs, args }
    }

    /// Where the state buffers the host reads are: `val`, `st` and `ctl`.
    pub fn index(name: &str) -> usize {
        FARM_POINTERS.iter().position(|&p| p == name).expect("a pointer of FarmArgs")
    }
}

/// Why the farm cannot run `p`. Its unfounded-set check (kernels/farm_unfounded.cu) takes
/// programs with no head cycle (those need the minimality check), whose weight bodies that
/// support cyclic atoms have weights and bounds of 32 bits.
pub fn unsupported(p: &Problem) -> Option<&'static str> {
    if p.has_head_cycles() {
        return Some("the program has head cycles (the farm has no minimality check)");
    }
    let cyclic_atoms = (0..p.num_vars).filter(|&v| p.is_cyclic(v));
    let bt = &p.bodies;
    let too_heavy =
        |b: usize| bt.bound[b] > i64::from(u32::MAX) || bt.def(b).1.iter().any(|&w| w > i64::from(u32::MAX));
    if cyclic_atoms.flat_map(|x| p.supports(x)).any(|&b| !bt.is_normal(b as usize) && too_heavy(b as usize)) {
        return Some("an aggregate on a positive cycle has a weight or bound past 2^32");
    }
    if p.num_vars >= 1 << 29 {
        return Some("the program has too many variables");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The order of [`SHARED_ORDER`] is kernels/farm.cu's `FARM_SM_*`, name by name.
    #[test]
    fn the_shared_arrays_follow_the_kernels_order() {
        let src = include_str!("../../../../kernels/farm.cu");
        let mut defined: Vec<(u32, String)> = src
            .lines()
            .filter_map(|l| l.strip_prefix("#define FARM_SM_"))
            .filter_map(|l| l.split_once(' '))
            .filter(|(name, _)| *name != "ARRAYS")
            .map(|(name, i)| (i.trim().parse().expect("a number"), name.to_lowercase()))
            .collect();
        defined.sort();
        let names: Vec<String> = defined.into_iter().map(|(_, n)| n).collect();
        assert_eq!(names, SHARED_ORDER.map(String::from));
        assert!(src.contains(&format!("#define FARM_SM_ARRAYS {}", SHARED_ORDER.len())));
    }

    /// Each array in turn that still fits: the counts are skipped where they do not, and the
    /// arrays after them still taken.
    #[test]
    fn a_plan_takes_each_array_that_still_fits() {
        assert_eq!(shared_plan(100, 50, 0), (0, 0));
        assert_eq!(shared_plan(100, 50, 99), (0b10, 50));
        assert_eq!(shared_plan(100, 50, 150), (0b11, 150));
        assert_eq!(shared_plan(100, 1000, 350), (0b1101, 300));
        assert_eq!(shared_plan(100, 50, u32::MAX), ((1 << SHARED_ORDER.len()) - 1, 850));
    }
}
