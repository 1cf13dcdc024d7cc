//! The examples' one command-line argument, `--seconds N`: how long a run
//! lasts before it closes itself.

/// `--seconds N`, if given; any other argument is refused.
pub(crate) fn seconds() -> Result<Option<u64>, String> {
    let mut args = std::env::args().skip(1);
    let mut seconds = None;
    while let Some(arg) = args.next() {
        if arg != "--seconds" {
            return Err(format!(
                "unknown argument {arg:?}; the one argument is --seconds N"
            ));
        }
        let value = args
            .next()
            .ok_or("--seconds needs a number of whole seconds")?;
        let parsed = value
            .parse::<u64>()
            .map_err(|e| format!("--seconds {value}: {e}; give whole seconds"))?;
        seconds = Some(parsed);
    }
    Ok(seconds)
}
