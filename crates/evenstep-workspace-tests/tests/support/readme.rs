//! The check of every published crate's README: each Rust example in it is
//! one of the crate doc's examples, line for line (less the lines a doctest
//! hides).

/// The code blocks of Markdown `text`: each block's info string (`rust`,
/// `no_run`, empty) and its lines.
fn code_blocks(text: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, Vec<&str>)> = None;
    for line in text.lines() {
        let fence = line.trim_start().strip_prefix("```");
        match (&mut open, fence) {
            (None, Some(info)) => open = Some((info.trim().to_owned(), Vec::new())),
            (Some(_), Some(_)) => {
                if let Some((info, lines)) = open.take() {
                    blocks.push((info, lines.join("\n")));
                }
            }
            (Some((_, lines)), None) => lines.push(line),
            (None, None) => {}
        }
    }
    blocks
}

/// A doctest as the reader sees it: without the lines rustdoc hides.
fn visible(code: &str) -> String {
    code.lines()
        .filter(|line| {
            let line = line.trim_start();
            line != "#" && !line.starts_with("# ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Panics, naming the example, unless every Rust example in `readme` is
/// one of the doctests in `lib_rs`'s crate doc.
pub(crate) fn check(readme: &str, lib_rs: &str) {
    let crate_doc: Vec<&str> = lib_rs
        .lines()
        .filter_map(|line| line.strip_prefix("//!"))
        .map(|line| line.strip_prefix(' ').unwrap_or(line))
        .collect();
    let doctests: Vec<String> = code_blocks(&crate_doc.join("\n"))
        .iter()
        .map(|(_, code)| visible(code))
        .collect();
    let examples: Vec<String> = code_blocks(readme)
        .into_iter()
        .filter(|(info, _)| info.split(',').next() == Some("rust"))
        .map(|(_, code)| code)
        .collect();
    assert!(!examples.is_empty(), "the README shows no Rust example");
    for example in &examples {
        assert!(
            doctests.contains(example),
            "this README example is not one of the crate doc's examples; copy it there or from there:\n{example}"
        );
    }
}
