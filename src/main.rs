//! The `yasmin` command: parse the command line as clasp would and run.

use clap::Parser;
use clap::error::ErrorKind;
use yasmin::app::{EXIT_ERROR, run};
use yasmin::cli::Cli;

fn main() {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => 0,
                _ => EXIT_ERROR,
            };
            let _ = e.print();
            std::process::exit(code);
        }
    };
    std::process::exit(run(cli));
}
