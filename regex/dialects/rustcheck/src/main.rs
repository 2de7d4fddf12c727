// rustcheck replays regex verdicts in Rust's regex crate for schema2gbnf's
// dialect tests (regex/rust_test.go). Each input line is a pattern and a
// text, both in hex, separated by a space; each output line is 1 when
// ^(?:pattern)$ matches the text, 0 when not, or E and the error when the
// pattern does not compile. A pattern past the crate's default limit on
// its compiled size (10 MiB) is compiled again with a limit of 1 GiB, as a
// caller would with RegexBuilder::size_limit, and its verdicts are
// prefixed with S. The crate comes from Debian's librust-regex-dev
// (.cargo/config.toml points cargo at /usr/share/cargo/registry), so the
// build needs no network.
use std::io::{self, BufRead, Write};

fn unhex(s: &str) -> String {
    let b: Vec<u8> = (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect();
    String::from_utf8(b).expect("UTF-8")
}

fn main() {
    let stdin = io::stdin();
    let mut out = io::BufWriter::new(io::stdout());
    let mut last = String::new();
    let mut re: Result<regex::Regex, regex::Error> = Err(regex::Error::Syntax(String::new()));
    let mut big = "";
    for line in stdin.lock().lines() {
        let line = line.expect("input");
        let (p, t) = line.split_once(' ').expect("two fields");
        if p != last {
            let anchored = format!("^(?:{})$", unhex(p));
            re = regex::Regex::new(&anchored);
            big = "";
            if let Err(regex::Error::CompiledTooBig(_)) = re {
                re = regex::RegexBuilder::new(&anchored).size_limit(1 << 30).build();
                big = "S ";
            }
            last = p.to_string();
        }
        match &re {
            Ok(r) => writeln!(out, "{}{}", big, if r.is_match(&unhex(t)) { 1 } else { 0 }),
            Err(e) => writeln!(out, "E {}", e.to_string().replace('\n', " ")),
        }
        .expect("output");
    }
}
