//! Schedules of conflict counts: when a search restarts (`--restarts`: Luby, geometric,
//! arithmetic, fixed, Glucose's dynamic restarts, or never) and when it deletes learned nogoods
//! (`--del-cfl`), as clasp writes them, with clasp's repeat limit; and yasmin's deletion schedules.

/// When to restart: after a number of conflicts from the Luby sequence times a unit, from a
/// geometric series, from an arithmetic one, after a fixed number each time, dynamically, or
/// never.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Restarts {
    Luby(u64),
    Geometric(u64, f64),
    /// `n + m*i` conflicts before the i-th restart (from 0).
    Arithmetic(u64, u64),
    Fixed(u64),
    /// Glucose's dynamic restarts (clasp's `D,N,K`, without its adjustment of K): once `N`
    /// conflicts have passed since the last restart, restart when the average LBD of the last
    /// `N` learned nogoods, times `K`, exceeds the average of all (the search learns worse
    /// nogoods than it has been learning). Conflicts only (`--restarts`, not `--del-cfl`).
    Dynamic(u32, f64),
    No,
}

impl std::str::FromStr for Restarts {
    type Err = String;
    /// yasmin's `luby[,N]`, `geom[,N[,F]]`, `dynamic[,N[,K]]`, `no`, and clasp's `L,N`, `x,N,F`,
    /// `+,N,M`, `F,N`, `D,N[,K]`, `0` (clasp's repeat limit, a last `,LIM` of L, x and +, is not
    /// taken). Names in any case, as clasp reads them (`l,60`, `Luby`).
    fn from_str(s: &str) -> Result<Self, String> {
        let lower = s.to_ascii_lowercase();
        let parts: Vec<&str> = lower.split(',').collect();
        let num = |i: usize| -> Result<u64, String> {
            parts
                .get(i)
                .and_then(|x| x.parse().ok())
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("'{s}': expected a positive number"))
        };
        let factor = |i: usize| -> Result<f64, String> {
            match parts.get(i) {
                Some(x) => x
                    .parse()
                    .ok()
                    .filter(|&f: &f64| f > 1.0)
                    .ok_or_else(|| format!("'{s}': factor must exceed 1")),
                None => Ok(1.5),
            }
        };
        match (parts[0], parts.len()) {
            ("no" | "0", 1) => Ok(Restarts::No),
            ("luby", 1..=2) => Ok(Restarts::Luby(if parts.len() == 2 { num(1)? } else { 100 })),
            ("l", 2) => Ok(Restarts::Luby(num(1)?)),
            ("geom", 1..=3) => {
                Ok(Restarts::Geometric(if parts.len() >= 2 { num(1)? } else { 100 }, factor(2)?))
            }
            ("x", 3) => Ok(Restarts::Geometric(num(1)?, factor(2)?)),
            ("+", 3) => {
                let m =
                    parts[2].parse().map_err(|_| format!("'{s}': expected a number of conflicts to add"))?;
                Ok(Restarts::Arithmetic(num(1)?, m))
            }
            ("f", 2) => Ok(Restarts::Fixed(num(1)?)),
            ("d" | "dynamic", _) if parts.len() <= 3 && (parts[0] == "dynamic" || parts.len() >= 2) => {
                let window = if parts.len() >= 2 { num(1)? } else { 100 };
                let window = u32::try_from(window).map_err(|_| format!("'{s}': window too large"))?;
                let k = match parts.get(2) {
                    Some(x) => x
                        .parse()
                        .ok()
                        .filter(|&k: &f64| k > 0.0 && k.is_finite())
                        .ok_or_else(|| format!("'{s}': the margin K must be positive"))?,
                    None => 0.7,
                };
                Ok(Restarts::Dynamic(window, k))
            }
            _ => Err(format!(
                "'{s}': expected luby[,N], geom[,N[,F]], dynamic[,N[,K]], L,N, x,N,F, +,N,M, F,N, D,N,K or no"
            )),
        }
    }
}

impl std::fmt::Display for Restarts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Restarts::Luby(n) => write!(f, "luby,{n}"),
            Restarts::Geometric(n, x) => write!(f, "geom,{n},{x}"),
            Restarts::Arithmetic(n, m) => write!(f, "+,{n},{m}"),
            Restarts::Fixed(n) => write!(f, "F,{n}"),
            Restarts::Dynamic(n, k) => write!(f, "D,{n},{k}"),
            Restarts::No => f.write_str("no"),
        }
    }
}

/// A schedule of conflict counts (restarts, deletion): a sequence and clasp's repeat limit. With
/// a limit `n` the sequence starts over after its n-th element, one element longer each time
/// (a Luby sequence: whole periods, twice as many each time); 0 never starts over.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    pub sequence: Restarts,
    pub repeat: u32,
}

impl From<Restarts> for Schedule {
    fn from(sequence: Restarts) -> Self {
        Schedule { sequence, repeat: 0 }
    }
}

impl std::str::FromStr for Schedule {
    type Err = String;
    /// [`Restarts`]' forms, and clasp's with a repeat limit: `L,N,LIM`, `x,N,F,LIM`, `+,N,M,LIM`.
    fn from_str(s: &str) -> Result<Self, String> {
        let parts: Vec<&str> = s.split(',').collect();
        match (parts[0].to_ascii_lowercase().as_str(), parts.len()) {
            ("l", 3) | ("x" | "+", 4) => {
                let sequence = parts[..parts.len() - 1].join(",").parse()?;
                let repeat = parts[parts.len() - 1]
                    .parse()
                    .map_err(|_| format!("'{s}': expected a repeat limit (a number) last"))?;
                Ok(Schedule { sequence, repeat })
            }
            _ => s.parse::<Restarts>().map(Schedule::from),
        }
    }
}

impl std::fmt::Display for Schedule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.sequence, self.repeat) {
            (Restarts::Luby(n), r @ 1..) => write!(f, "L,{n},{r}"),
            (Restarts::Geometric(n, x), r @ 1..) => write!(f, "x,{n},{x},{r}"),
            (Restarts::Arithmetic(n, m), r @ 1..) => write!(f, "+,{n},{m},{r}"),
            (sequence, _) => sequence.fmt(f),
        }
    }
}

/// yasmin's deletion schedule (`--del-cfl`): half the learned nogoods go after 2,000 conflicts,
/// then after 2,300 more, 2,600, ... clasp's tweety deletes on `+,2000,100,20` and also by the
/// database's size, which yasmin does not; that schedule alone solved 17 of `anchor` against 19
/// (BENCHMARKS.md, "Deletion").
pub const DEL_CFL: Schedule = Schedule { sequence: Restarts::Arithmetic(2000, 300), repeat: 0 };

/// The deletion schedule where several models are enumerated (`-n 0`, `-n N`; no optimization):
/// after 300 conflicts, then 350 more, 400, ... An enumeration never returns to the parts of the
/// space it has exhausted, where most of its nogoods were learned; on queens and Hamiltonian
/// cycles a small database made one search 1.2 to 1.4 times as fast, split searches up to 1.8
/// (BENCHMARKS.md, "Enumeration").
pub const ENUM_DEL_CFL: Schedule = Schedule { sequence: Restarts::Arithmetic(300, 50), repeat: 0 };
