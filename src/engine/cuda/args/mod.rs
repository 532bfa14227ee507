//! The arguments of every kernel the host launches: one struct per kernel signature, its fields
//! the kernel's parameters in their order (see [`super::launch`] for the types). Each is declared
//! with the parameter list it follows, quoted from `kernels/*.cu`; the tests below check that
//! quote against the sources and the fields against the quote, name by name and type by type.
//! One file per kernel file: propagate.rs (propagate.cu and fixpoint.cu), decide.rs, backjump.rs,
//! learn.rs, farm.rs.

/// Declares the argument structs: `Name<'a> for [kernels] "parameter list" { fields }`. The
/// fields are pushed in the order they are declared here, which must be the quoted list's.
macro_rules! kernel_args {
    ($(
        $(#[$doc:meta])*
        $name:ident $(<$lt:lifetime>)? for [$($kernel:ident),+] $sig:literal {
            $($field:ident: $ty:ty,)+
        }
    )*) => {$(
        $(#[$doc])*
        #[doc = concat!("\n\nParameters: `(", $sig, ")`.")]
        pub struct $name $(<$lt>)? { $(pub $field: $ty,)+ }

        impl $(<$lt>)? KernelArgs for $name $(<$lt>)? {
            const KERNELS: &'static [Kernel] = &[$(Kernel::$kernel),+];
            const SIGNATURE: &'static str = $sig;
            const FIELDS: &'static [(&'static str, &'static str)] = &[$((stringify!($field), stringify!($ty))),+];
            fn push<'b>(&'b mut self, b: &mut LaunchArgs<'b>) {
                $(Param::push(&mut self.$field, b);)+
            }
        }
    )*};
}

mod backjump;
mod decide;
mod farm;
mod learn;
mod propagate;

pub use backjump::*;
pub use decide::*;
pub use farm::*;
pub use learn::*;
pub use propagate::*;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cuda::kernels::{Kernel, translation_unit};
    use crate::engine::cuda::launch::KernelArgs;

    /// An argument struct's kernels, quoted parameter list and fields.
    type Decl = (&'static [Kernel], &'static str, &'static [(&'static str, &'static str)]);

    /// Every argument struct.
    fn all() -> Vec<Decl> {
        macro_rules! of {
            ($($t:ty),*) => { vec![$((<$t>::KERNELS, <$t>::SIGNATURE, <$t>::FIELDS)),*] };
        }
        of!(
            InitUnitsArgs,
            PropClassArgs,
            PropLearnedArgs,
            WeightMarkArgs,
            WeightCheckArgs,
            MergeArgs,
            DepsArgs,
            RoundEndArgs,
            CheckNogoodsArgs,
            CheckWeightsArgs,
            FixpointArgs,
            DecideArgs,
            ApplyDecisionArgs,
            ForceDecisionArgs,
            BackjumpArgs,
            SetLevelArgs,
            AppendLearnedArgs,
            AssertArgs,
            DepsGrowArgs,
            RescaleArgs,
            SetConflictArgs,
            MarkDirtyArgs,
            PublishCtlArgs,
            LearnResArgs,
            LearnFwdArgs,
            FarmSearchArgs
        )
    }

    fn squeeze(s: &str) -> String {
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// The Rust types that may pass a parameter of C type `c`: device buffers by their element
    /// type and constness; a `u64*` or `Control*` also as a raw address (`u64`), where the
    /// buffer may be absent or is the host's pinned mirror.
    fn rust_types(c: &str) -> Vec<String> {
        let elem = |t: &str| match t {
            "int" => "i32",
            "u32" => "u32",
            "u64" => "u64",
            "i64" => "i64",
            "float" => "f32",
            "Control" => "Control",
            other => panic!("no Rust element type for {other}"),
        };
        if let Some(t) = c.strip_prefix("const ").and_then(|t| t.strip_suffix('*')) {
            return vec![format!("&CudaSlice<{}>", elem(t))];
        }
        if let Some(t) = c.strip_suffix('*') {
            let mut v = vec![format!("&mutCudaSlice<{}>", elem(t))];
            if t == "u64" || t == "Control" {
                v.push("u64".into());
            }
            return v;
        }
        match c {
            "u32" => vec!["u32".into()],
            "float" => vec!["f32".into()],
            "Db" => vec!["DeviceDb".into()],
            "FixArgs" => vec!["FixArgs".into()],
            "FarmArgs" => vec!["FarmArgs".into()],
            other => panic!("no Rust type for the parameter type {other}"),
        }
    }

    #[test]
    fn every_launched_kernel_has_one_argument_struct() {
        let structs = all();
        for &k in Kernel::ALL {
            let n = structs.iter().filter(|(ks, _, _)| ks.contains(&k)).count();
            assert_eq!(n, 1, "{} has {n} argument structs", k.name());
        }
    }

    /// The quoted parameter lists are the sources' (so the kernels sharing a struct share the
    /// signature), and the fields follow them: the same names in the same order, each of a
    /// type that passes its parameter.
    #[test]
    fn argument_structs_follow_the_kernels_signatures() {
        let src = squeeze(&translation_unit());
        for (kernels, sig, fields) in all() {
            for k in kernels {
                let decl = format!("{}({})", k.name(), squeeze(sig));
                assert!(src.contains(&decl), "kernels/ do not declare {decl}");
            }
            let params: Vec<&str> = sig.split(',').map(str::trim).collect();
            assert_eq!(params.len(), fields.len(), "{sig}: {} fields", fields.len());
            for (param, (name, ty)) in params.iter().zip(fields.iter()) {
                let (c_type, c_name) = param.rsplit_once(' ').expect("a type and a name");
                assert_eq!(c_name, *name, "({sig}): field {name} in the place of {c_name}");
                let ty: String = ty.replace("'a", "").split_whitespace().collect();
                assert!(
                    rust_types(c_type).contains(&ty),
                    "({sig}): {name} is {ty}, which does not pass a {c_type}"
                );
            }
        }
    }
}
