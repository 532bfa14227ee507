//! The `yasmin` command: parse the command line as clasp would and run.

mod cli;

use cli::clasp::{CliError, Parsed, parse};
use std::io::Write;
use yasmin::app::{EXIT_USAGE, Exit, ends_through_exit, leave_driver_aside, run};

fn main() {
    let cli = match parse(std::env::args_os()) {
        Ok(Parsed::Run(c)) => *c,
        Ok(Parsed::Print(text)) => {
            print!("{text}");
            std::process::exit(0);
        }
        Err(CliError(msg)) => {
            eprintln!("*** ERROR: (yasmin): {msg}");
            eprintln!("*** Info : (yasmin): Try '--help' for usage information");
            std::process::exit(EXIT_USAGE);
        }
    };
    let cfg = match cli.run_config() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("*** ERROR: (yasmin): {e}");
            std::process::exit(EXIT_USAGE);
        }
    };
    match run(cfg) {
        Exit::Code(code) => exit(code),
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

/// Ends the process with `code`; where tearing the libraries down is not safe or not needed
/// ([`ends_through_exit`]), without it, the output flushed first and the driver's files left to
/// a child ([`leave_driver_aside`]).
fn exit(code: i32) -> ! {
    if !ends_through_exit() {
        let _ = std::io::stdout().flush();
        let _ = std::io::stderr().flush();
        leave_driver_aside();
        // SAFETY: ends the process at once; everything it printed is flushed above.
        unsafe { libc::_exit(code) }
    }
    std::process::exit(code)
}
