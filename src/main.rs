//! The `yasmin` command: parse the command line as clasp would and run.

use clap::Parser;
use clap::error::ErrorKind;
use yasmin::app::{EXIT_ERROR, Exit, run};
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
    match run(cli) {
        Exit::Code(code) => std::process::exit(code),
        // As clasp: a closed output pipe ends the process by SIGPIPE, quietly.
        Exit::BrokenPipe => {
            // SAFETY: restores SIGPIPE's default action (Rust ignores it) and raises it.
            unsafe {
                libc::signal(libc::SIGPIPE, libc::SIG_DFL);
                libc::raise(libc::SIGPIPE);
            }
            std::process::exit(141)
        }
    }
}
