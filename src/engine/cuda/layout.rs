//! The host mirror of the device data layout (`kernels/common.cuh`) and the tables built from a
//! [`Problem`] before upload: occurrence lists by nogood length, weight constraints with the
//! cost-bound slot, the decision entries (rules of the ASP computation, or variables), the body table.

use crate::engine::signs::Signs;
use crate::nogoods::{Csr, Lit, NogoodStore, Problem};
use cudarc::driver::{DeviceRepr, ValidAsZeroBits};

pub const NO_CONFLICT: u32 = u32::MAX;
/// A decision entry's body on variables (`e_body`; common.cuh's VAR_ENTRY): its head is the
/// literal decided.
pub const VAR_ENTRY: u32 = u32::MAX - 1;
pub const R_UNIT: u32 = 1;
pub const R_LEARNED: u32 = 3;
pub const GROUP_SHIFT: u32 = 26;
pub const LEARNED_GROUPS: usize = 4;

pub const fn reason(kind: u32, index: u32) -> u32 {
    (kind << 29) | index
}

/// The reason code of learned nogood `index` of group `g`.
pub const fn learned_reason(g: usize, index: u32) -> u32 {
    reason(R_LEARNED, ((g as u32) << GROUP_SHIFT) | index)
}

/// The group of a learned nogood's reason code.
pub const fn group_of_reason(code: u32) -> usize {
    ((code & 0x1fff_ffff) >> GROUP_SHIFT) as usize
}

/// The longest nogood of each learned group but the last, which takes all longer ones (common.cuh,
/// `group_of_d`, has the same bounds).
pub const GROUP_MAX_LEN: [u32; LEARNED_GROUPS - 1] = [2, 3, 7];

/// The learned-nogood group of a length: 2, 3, 4..7, 8 and more.
pub fn group_of(len: usize) -> usize {
    GROUP_MAX_LEN.iter().position(|&m| len <= m as usize).unwrap_or(LEARNED_GROUPS - 1)
}

/// Decisions propagate_fix_k may make before it returns, and conflicts it may analyse itself
/// (common.cuh's DECIDE_MAX and LEARN_MAX; Control's size, checked by the kernels' compile,
/// differs if the two sides disagree). Its events record both in order, after the analysis
/// queued before it; an event is a decision's trail position or `EVENT_LEARN` | a backjump level.
pub const DECIDE_MAX: usize = 8;
pub const LEARN_MAX: usize = 8;
pub const EVENTS_MAX: usize = DECIDE_MAX + LEARN_MAX + 1;
pub const EVENT_LEARN: u32 = 0x8000_0000;

/// `WIDE_NOGOOD` of common.cuh (checked by the kernels' compile): input nogoods this long are
/// checked by a warp, and, where block 0's marks have room, once a round (`Tables::wide`).
pub const WIDE_NOGOOD: u32 = 32;

/// `struct Control` of common.cuh, field for field.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Control {
    pub trail_len: u32,
    pub qhead: u32,
    pub qend: u32,
    pub level: u32,
    pub conflict: u32,
    pub conflict_aux: u32,
    pub nprop: u32,
    pub ndirty: u32,
    pub decided: u32,
    pub learned_len: u32,
    pub bj_level: u32,
    pub unsat: u32,
    pub best: u64,
    pub uip: u32,
    pub conflict_level: u32,
    pub rounds: u32,
    pub sweeps: u32,
    pub ns_input: u64,
    pub ns_sweep: u64,
    pub ranked: u64,
    pub ns_learn: u64,
    pub lbd: u32,
    /// Its decisions and analyses in order (see `EVENT_LEARN`), and the analyses' nogood lengths
    /// and LBDs in the order of their events, and the trail's length when each began.
    pub events: u32,
    pub event: [u32; EVENTS_MAX],
    pub an_len: [u32; LEARN_MAX + 1],
    pub an_lbd: [u32; LEARN_MAX + 1],
    pub an_trail: [u32; LEARN_MAX + 1],
}

// SAFETY: plain old data with the C layout the kernels use; all-zero is a valid value.
unsafe impl DeviceRepr for Control {}
unsafe impl ValidAsZeroBits for Control {}

/// `struct Db` of common.cuh: raw device pointers, passed by value to the kernels.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct DeviceDb {
    pub ng_start: u64,
    pub ng_lits: u64,
    pub lg_start: [u64; LEARNED_GROUPS],
    pub lg_lits: [u64; LEARNED_GROUPS],
    pub lg_lbd: [u64; LEARNED_GROUPS],
    pub lg_fill: u64,
    pub w_head: u64,
    pub w_bound: u64,
    pub w_start: u64,
    pub w_lits: u64,
    pub w_weights: u64,
}

// SAFETY: plain old data (device addresses) with the C layout of `struct Db`.
unsafe impl DeviceRepr for DeviceDb {}

/// `struct FixArgs` of common.cuh: the arguments of `propagate_fix_k` besides the [`DeviceDb`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct FixArgs {
    pub val: u64,
    pub prop: u64,
    pub prop_list: u64,
    pub prop_reason: u64,
    pub ctl: u64,
    pub trail: u64,
    pub trail_pos: u64,
    pub reason: u64,
    pub occ_start: [u64; 3],
    pub occ: [u64; 3],
    pub class_size: [u32; 3],
    pub w_occ_start: u64,
    pub w_occ: u64,
    pub dirty: u64,
    pub dirty_list: u64,
    pub nweights: u32,
    pub words: u32,
    pub deps: u64,
    pub barrier: u64,
    pub ctl_host: u64,
    pub rank: u32,
    pub entries: u32,
    pub e_body: u64,
    pub e_head: u64,
    pub b_lit: u64,
    pub def_start: u64,
    pub def_lits: u64,
    pub def_weights: u64,
    pub bound: u64,
    pub score: u64,
    pub nvars: u32,
    pub swords: u32,
    pub scap: u32,
    pub sweights: u32,
    pub decide: u32,
    pub level_start: u64,
    pub learn: u32,
    pub pending: u32,
    pub seg_cap: u32,
    pub seen_words: u32,
    pub mark_words: u32,
    pub pool_cap: u32,
    pub inc: f32,
    pub learned: u64,
    pub res_bits: u64,
    pub wide: u64,
    pub nwide: u32,
}

// SAFETY: plain old data (device addresses and counts) with the C layout of `struct FixArgs`.
unsafe impl DeviceRepr for FixArgs {}

/// The pointers of `struct FarmArgs` (kernels/farm.cu), in their order: the problem's arrays,
/// then the searches' state, then what they share (`farm/tables.rs` builds them in this order;
/// a test checks the names against the struct).
pub const FARM_POINTERS: [&str; 64] = [
    "ng_start",
    "ng_lits",
    "occ_start",
    "occ",
    "bin_start",
    "bin",
    "w_head",
    "w_bound",
    "w_total",
    "w_start",
    "w_lits",
    "w_weight",
    "w_occ_start",
    "w_occ",
    "units",
    "cubes",
    "sign",
    "act0",
    "u_cyc",
    "u_sup_start",
    "u_sup",
    "u_blit",
    "u_pos_start",
    "u_pos",
    "u_head_start",
    "u_head",
    "u_fals_start",
    "u_fals",
    "u_pocc_start",
    "u_pocc",
    "u_sum_start",
    "u_sum",
    "u_bound",
    "val",
    "level",
    "reason",
    "tpos",
    "trail",
    "lim",
    "seen",
    "act",
    "bmax",
    "phase",
    "learnt",
    "stamp",
    "cnt",
    "wsum",
    "whead",
    "u_src",
    "u_flag",
    "u_todo",
    "u_work",
    "l_head",
    "l_chunk",
    "l_lits",
    "l_start",
    "l_len",
    "l_lbd",
    "st",
    "x_seq",
    "x_meta",
    "x_lits",
    "ctl",
    "m_ring",
];

/// `struct FarmArgs` of kernels/farm.cu: the search farm's arrays ([`FARM_POINTERS`]) and sizes.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct FarmArgs {
    pub ptrs: [u64; FARM_POINTERS.len()],
    pub slice_ns: u64,
    pub nvars: u32,
    pub ngoods: u32,
    pub nweights: u32,
    pub nunits: u32,
    pub searches: u32,
    pub arena: u32,
    pub max_learned: u32,
    pub xcap: u32,
    pub seed: u32,
    pub restart_base: u32,
    pub flags: u32,
    pub chunks: u32,
    pub ncubes: u32,
    pub cube_len: u32,
    pub mcap: u32,
    pub mwords: u32,
    pub smem: u32,
    pub smem_words: u32,
}

// SAFETY: plain old data (device addresses and counts) with the C layout of `struct FarmArgs`.
unsafe impl DeviceRepr for FarmArgs {}

/// `static_assert`s that the kernels' shared structs have the size of their mirrors here,
/// appended to the kernels' translation unit: a field added, dropped or resized on one side only
/// fails the NVRTC compile, naming the struct. (NVRTC has no `offsetof` in constant expressions,
/// so the order of same-sized fields is not checked.)
pub fn layout_asserts() -> String {
    let mut s = String::from("\n// ---- layout checks (generated by layout.rs)\n");
    s.push_str(&format!(
        "static_assert(WIDE_NOGOOD == {WIDE_NOGOOD}u, \"WIDE_NOGOOD differs from its mirror in layout.rs\");\n"
    ));
    for (c, size) in [
        ("Control", std::mem::size_of::<Control>()),
        ("Db", std::mem::size_of::<DeviceDb>()),
        ("FixArgs", std::mem::size_of::<FixArgs>()),
        ("FarmArgs", std::mem::size_of::<FarmArgs>()),
    ] {
        s.push_str(&format!(
            "static_assert(sizeof({c}) == {size}, \"struct {c} differs from its mirror in layout.rs\");\n"
        ));
    }
    s
}

/// Everything uploaded once, built on the host.
pub struct Tables {
    pub ng_start: Vec<u32>,
    pub ng_lits: Vec<u32>,
    /// Occurrence lists (literal -> nogoods) of the classes 2, 3 and longer, entries counted by
    /// `occ.0`. An entry of a nogood of length 2 or 3 carries its other literals, so propagation
    /// needs no look-up in the nogood store: `[n, other]` and `[n, x, y, 0]` (16 bytes, one
    /// load); a longer nogood's entry says where its literals are: `[n, start, len, 0]`.
    pub occ: [(Vec<u32>, Vec<u32>); 3],
    pub class_sizes: [usize; 3],
    /// The input nogoods of [`WIDE_NOGOOD`] literals and more (the end of the store, which is
    /// sorted by length): `[n, start, len, index]` each, as their occurrence entries, whose last
    /// word is that index.
    pub wide: Vec<u32>,
    pub units: Vec<u32>,
    /// Weight constraints; the last one is the cost-bound slot when the problem has costs.
    pub w_head: Vec<u32>,
    pub w_bound: Vec<i64>,
    pub w_start: Vec<u32>,
    pub w_lits: Vec<u32>,
    pub w_weights: Vec<i64>,
    pub w_occ: (Vec<u32>, Vec<u32>),
    /// The cost slot: its index, the multiplier of each cost level, the scaled total.
    pub cost_slot: Option<(u32, Vec<i64>, i64)>,
    /// Decision entries: a body (head NO_CONFLICT), a choice head of a body, or, deciding on
    /// variables, `VAR_ENTRY` and a literal.
    pub e_body: Vec<u32>,
    pub e_head: Vec<u32>,
    pub b_lit: Vec<u32>,
    pub def_start: Vec<u32>,
    pub def_lits: Vec<u32>,
    pub def_weights: Vec<i64>,
    pub bound: Vec<i64>,
}

/// For each of the `nl` literals, the nogoods in `range` that contain it: the lists' starts and
/// the nogoods' numbers, end to end.
pub(crate) fn nogoods_containing(
    nl: usize,
    st: &NogoodStore,
    range: std::ops::Range<usize>,
) -> (Vec<u32>, Vec<u32>) {
    let pairs = range.flat_map(move |i| st.nogood(i).iter().map(move |l| (l.index(), i as u32)));
    Csr::from_pairs(nl, pairs).into_parts()
}

/// The occurrence lists of the nogoods in `range`: for each literal, an entry of `W` words per
/// nogood containing it, `[n]` followed (W > 1) by the nogood's other literals, zero-padded; or,
/// with `W` = 0, the long class's 4-word entries `[n, start, len, w]` (the nogood's place in the
/// store, and for a wide nogood its index among them, `n - first_wide`; else 0).
pub(crate) fn occurrences<const W: usize>(
    nl: usize,
    st: &NogoodStore,
    range: std::ops::Range<usize>,
    first_wide: usize,
) -> (Vec<u32>, Vec<u32>) {
    let (start, ns) = nogoods_containing(nl, st, range);
    let words = W.max(4);
    let mut entries = Vec::with_capacity(ns.len() * words);
    for l in 0..nl {
        for &n in &ns[start[l] as usize..start[l + 1] as usize] {
            let ng = st.nogood(n as usize);
            entries.push(n);
            if W == 0 {
                let w = (n as usize).saturating_sub(first_wide) as u32;
                entries.extend([st.offsets[n as usize], ng.len() as u32, w]);
                continue;
            }
            debug_assert!(ng.len() <= W, "an entry of {W} words holds at most {} other literals", W - 1);
            let own = ng.iter().position(|x| x.index() == l).expect("the nogood contains the literal");
            entries.extend(ng.iter().enumerate().filter(|&(k, _)| k != own).map(|(_, x)| x.0));
            entries.resize(entries.len().next_multiple_of(W), 0);
        }
    }
    (start, entries)
}

fn lits(l: &[Lit]) -> Vec<u32> {
    l.iter().map(|x| x.0).collect()
}

impl Tables {
    /// Builds the tables, with decisions on variables (`vars`: their signs) or on rules; fails
    /// when the cost levels cannot be folded into one 63-bit sum.
    pub fn new(p: &Problem, vars: Option<&Signs>) -> Result<Tables, String> {
        let st = &p.store;
        let nl = 2 * p.num_vars as usize;
        let class_range = [st.class(2), st.class(3), st.long()];
        let class_sizes = class_range.clone().map(|r| r.len());
        let [bin, tern, long] = class_range;
        let first_wide = st.long().find(|&n| st.nogood(n).len() >= WIDE_NOGOOD as usize).unwrap_or(st.len());
        let occ = [
            occurrences::<2>(nl, st, bin, first_wide),
            occurrences::<4>(nl, st, tern, first_wide),
            occurrences::<0>(nl, st, long, first_wide),
        ];
        let wide = (first_wide..st.len())
            .flat_map(|n| [n as u32, st.offsets[n], st.nogood(n).len() as u32, (n - first_wide) as u32])
            .collect();
        let w = &p.weights;
        let mut t = Tables {
            ng_start: st.offsets.clone(),
            ng_lits: st.lits.clone(),
            occ,
            class_sizes,
            wide,
            units: lits(&st.units),
            w_head: lits(&w.lit),
            w_bound: w.bound.clone(),
            w_start: w.start.clone(),
            w_lits: lits(&w.lits),
            w_weights: w.weights.clone(),
            w_occ: (Vec::new(), Vec::new()),
            cost_slot: None,
            e_body: Vec::new(),
            e_head: Vec::new(),
            b_lit: lits(&p.bodies.lit),
            def_start: p.bodies.def_start.clone(),
            def_lits: lits(&p.bodies.lits),
            def_weights: p.bodies.weights.clone(),
            bound: p.bodies.bound.clone(),
        };
        t.add_cost_slot(p)?;
        let nw = t.w_head.len();
        let (ws, wl, wh) = (&t.w_start, &t.w_lits, &t.w_head);
        let pairs = (0..nw).flat_map(|c| {
            let members = (ws[c]..ws[c + 1]).flat_map(move |i| {
                let l = Lit(wl[i as usize]);
                [(l.index(), c as u32), ((!l).index(), c as u32)]
            });
            let h = Lit(wh[c]);
            members.chain([(h.index(), c as u32), ((!h).index(), c as u32)])
        });
        t.w_occ = Csr::from_pairs(nl, pairs).into_parts();
        match vars {
            Some(signs) => t.variable_entries(p, signs),
            None => t.rule_entries(p),
        }
        Ok(t)
    }

    /// The ASP computation's decision entries: a body whose rule may be applied through its
    /// literal (not one that is its own literal, `h :- a`, applicable exactly when already true),
    /// and each choice head of a body.
    fn rule_entries(&mut self, p: &Problem) {
        let bt = &p.bodies;
        for b in 0..bt.len() {
            let l = bt.lit[b];
            if bt.has_heads(b) && l.var() != 0 && !(l.is_pos() && bt.def(b).0 == [l]) {
                self.e_body.push(b as u32);
                self.e_head.push(NO_CONFLICT);
            }
            for &h in bt.choice_heads(b) {
                self.e_body.push(b as u32);
                self.e_head.push(h);
            }
        }
    }

    /// Decision entries on variables (`--decisions=vars`): each variable but the constant and
    /// those that follow an equivalent literal (`--eq`, decided through it), as `VAR_ENTRY` with
    /// the literal `signs` gives it (drawn once here under `--sign-def=rnd`).
    fn variable_entries(&mut self, p: &Problem, signs: &Signs) {
        for v in (1..p.num_vars).filter(|&v| p.leader(v).is_none()) {
            self.e_body.push(VAR_ENTRY);
            self.e_head.push(signs.lit(v).0);
        }
    }

    /// The cost bound as one weight constraint `sum(M_k * w * [not l]) >= total - K` with head
    /// true: lexicographic levels folded by mixed-radix multipliers `M_k` (a level's multiplier
    /// exceeds everything the lower levels can add up to), inactive (bound 0) until set.
    fn add_cost_slot(&mut self, p: &Problem) -> Result<(), String> {
        let costs = &p.costs;
        if costs.is_empty() {
            return Ok(());
        }
        let mut mult = vec![0i64; costs.len()];
        let mut m: i64 = 1;
        for (lv, slot) in mult.iter_mut().enumerate().rev() {
            *slot = m;
            let level_max: i64 = costs.weights[costs.range(lv)].iter().sum();
            m = m
                .checked_mul(level_max + 1)
                .ok_or("cost levels too large for the CUDA engine's folded bound")?;
        }
        let mut terms: Vec<(Lit, i64)> = Vec::new();
        for (lv, &mul) in mult.iter().enumerate() {
            for i in costs.range(lv) {
                let w =
                    costs.weights[i].checked_mul(mul).ok_or("cost weights too large for the CUDA engine")?;
                terms.push((!costs.lits[i], w));
            }
        }
        terms.sort_by_key(|t| std::cmp::Reverse(t.1));
        let total = terms.iter().try_fold(0i64, |a, t| a.checked_add(t.1)).ok_or("cost sum too large")?;
        let slot = self.w_head.len() as u32;
        self.w_head.push(Lit::TRUE.0);
        self.w_bound.push(0);
        for (l, w) in terms {
            self.w_lits.push(l.0);
            self.w_weights.push(w);
        }
        self.w_start.push(self.w_lits.len() as u32);
        self.cost_slot = Some((slot, mult, total));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `FarmArgs`' fields are kernels/farm.cu's `struct FarmArgs`, name by name: its pointers
    /// are [`FARM_POINTERS`] in their order, then the scalars.
    #[test]
    fn farm_args_follow_the_kernels_struct() {
        let src = include_str!("../../../kernels/farm.cu");
        let body = src
            .split("struct FarmArgs {")
            .nth(1)
            .and_then(|b| b.split("};").next())
            .expect("struct FarmArgs");
        let mut pointers = Vec::new();
        let mut scalars = Vec::new();
        for decl in body.lines().map(|l| l.split("//").next().unwrap_or("").trim()).filter(|l| !l.is_empty())
        {
            let decl = decl.trim_end_matches(';');
            if let Some((_, name)) = decl.rsplit_once('*') {
                pointers.push(name.trim().to_string());
            } else {
                let names = decl.split_once(' ').map_or("", |(_, n)| n);
                scalars.extend(names.split(',').map(|n| n.trim().to_string()));
            }
        }
        assert_eq!(pointers, FARM_POINTERS.map(String::from));
        let rust = [
            "slice_ns",
            "nvars",
            "ngoods",
            "nweights",
            "nunits",
            "searches",
            "arena",
            "max_learned",
            "xcap",
            "seed",
            "restart_base",
            "flags",
            "chunks",
            "ncubes",
            "cube_len",
            "mcap",
            "mwords",
            "smem",
            "smem_words",
        ];
        assert_eq!(scalars, rust.map(String::from));
        let a = FarmArgs {
            ptrs: [0; FARM_POINTERS.len()],
            slice_ns: 0,
            nvars: 0,
            ngoods: 0,
            nweights: 0,
            nunits: 0,
            searches: 0,
            arena: 0,
            max_learned: 0,
            xcap: 0,
            seed: 0,
            restart_base: 0,
            flags: 0,
            chunks: 0,
            ncubes: 0,
            cube_len: 0,
            mcap: 0,
            mwords: 0,
            smem: 0,
            smem_words: 0,
        };
        assert_eq!(std::mem::size_of_val(&a), FARM_POINTERS.len() * 8 + 8 + 18 * 4);
    }

    #[test]
    fn occurrence_entries_carry_the_other_literals() {
        let (a, b, c, d) = (Lit::pos(1), Lit::neg(2), Lit::pos(3), Lit::neg(4));
        let st = NogoodStore::build(vec![vec![a, b], vec![a, c, d], vec![b, c, d, a]], vec![], 5);
        let nl = 2 * 5;
        let bin = st.class(2).start as u32;
        let tern = st.class(3).start as u32;
        let long = st.long().start as u32;
        let (start, e) = occurrences::<2>(nl, &st, st.class(2), st.len());
        assert_eq!(start[nl], 2, "two entries");
        let of = |l: Lit, w: usize| &e[start[l.index()] as usize * w..start[l.index() + 1] as usize * w];
        assert_eq!(of(a, 2), [bin, b.0]);
        assert_eq!(of(b, 2), [bin, a.0]);
        let (start, e) = occurrences::<4>(nl, &st, st.class(3), st.len());
        let of = |l: Lit| &e[start[l.index()] as usize * 4..start[l.index() + 1] as usize * 4];
        assert_eq!(of(a), [tern, c.0, d.0, 0]);
        assert_eq!(of(d), [tern, a.0, c.0, 0]);
        assert!(of(b).is_empty());
        let (start, e) = occurrences::<0>(nl, &st, st.long(), st.len());
        let offset = st.offsets[long as usize];
        assert_eq!(
            &e[start[c.index()] as usize * 4..start[c.index() + 1] as usize * 4],
            [long, offset, 4, 0]
        );
    }

    #[test]
    fn wide_nogoods_are_numbered_in_their_entries() {
        let lits = |from: u32, n: u32| (from..from + n).map(Lit::pos).collect::<Vec<_>>();
        // Lengths 4, 32 and 33: the last two are wide, 0 and 1 in that order (the store sorts by
        // length), and literal 1 is in all three.
        let st = NogoodStore::build(vec![lits(1, 33), lits(1, 4), lits(1, 32)], vec![], 40);
        let first_wide = st.long().find(|&n| st.nogood(n).len() >= WIDE_NOGOOD as usize).unwrap();
        assert_eq!(st.nogood(first_wide).len(), 32);
        let (start, e) = occurrences::<0>(2 * 40, &st, st.long(), first_wide);
        let l = Lit::pos(1).index();
        let entries: Vec<&[u32]> = e[start[l] as usize * 4..start[l + 1] as usize * 4].chunks(4).collect();
        let by_len = |len: u32| entries.iter().find(|x| x[2] == len).unwrap()[3];
        assert_eq!((by_len(4), by_len(32), by_len(33)), (0, 0, 1));
    }

    #[test]
    fn decision_entries_are_rules_or_variables() {
        use crate::solve::config::SignDef;
        // a :- not b.  b :- not a.  {c} :- a.
        let text = "asp 1 0 0\n1 0 1 1 0 1 -2\n1 0 1 2 0 1 -1\n1 1 1 3 0 1 1\n0\n";
        let program = crate::input::read_program(text.as_bytes()).expect("a program");
        let stop = crate::stop::StopToken::never();
        let p = crate::nogoods::complete(&program, &stop, 0).expect("completed");
        let rules = Tables::new(&p, None).expect("tables");
        assert!(!rules.e_body.contains(&VAR_ENTRY), "rules only");
        assert!(rules.e_head.contains(&3), "the choice of c");
        let signs = Signs::new(&p, SignDef::Neg, 1);
        let vars = Tables::new(&p, Some(&signs)).expect("tables");
        assert!(vars.e_body.iter().all(|&b| b == VAR_ENTRY));
        let decided: Vec<u32> = (1..p.num_vars).map(|v| Lit::neg(v).0).collect();
        assert_eq!(vars.e_head, decided, "each variable but the constant, false");
        // The kernels' VAR_ENTRY is this one.
        let header = include_str!("../../../kernels/common.cuh");
        let define = header.lines().find(|l| l.starts_with("#define VAR_ENTRY ")).expect("VAR_ENTRY");
        let value = define.split_whitespace().nth(2).expect("a value");
        assert_eq!(
            u32::from_str_radix(value.trim_start_matches("0x").trim_end_matches('u'), 16),
            Ok(VAR_ENTRY)
        );
    }

    #[test]
    fn groups_split_lengths_at_their_bounds() {
        let groups: Vec<usize> = (1..=9).map(group_of).collect();
        assert_eq!(groups, [0, 0, 1, 2, 2, 2, 2, 3, 3]);
    }

    #[test]
    fn learned_reasons_name_their_group() {
        for g in 0..LEARNED_GROUPS {
            for index in [0, 1, 12345, (1 << GROUP_SHIFT) - 1] {
                let code = learned_reason(g, index);
                assert_eq!(code >> 29, R_LEARNED);
                assert_eq!(group_of_reason(code), g);
                assert_eq!(code & ((1 << GROUP_SHIFT) - 1), index);
            }
        }
    }
}
