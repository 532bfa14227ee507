//! The arguments of kernels/farm.cu's kernel: the search farm, all its arrays in one struct.

use crate::engine::cuda::kernels::Kernel;
use crate::engine::cuda::launch::{KernelArgs, Param};
use crate::engine::cuda::layout::FarmArgs;
use cudarc::driver::LaunchArgs;

kernel_args! {
    /// `farm_search_k`: runs every search of the farm for a time slice.
    FarmSearchArgs for [FarmSearch] "FarmArgs a" {
        a: FarmArgs,
    }
}
