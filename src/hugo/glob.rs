//! Hugo's globs (`hugofs/hglob`, over `gobwas/glob` with `/` as the separator), as a page
//! matcher's `kind`, `path` and `environment` are written: `*` any run of characters but
//! `/`, `**` any run at all, `?` one character but `/`, `[abc]`, `[!abc]`, `[a-z]` one
//! character of a set (`/` too), `{a,b}` one of the alternatives (nested ones too), `\` the
//! next character as itself. Pattern and text are lower-cased, as Hugo's are; the match is
//! of the whole text. The syntax errors are those Hugo 0.168 stops at (an open `{` or `[`, a
//! set with nothing in it, a range backwards, a `\` at the end), checked against it.
//!
//! globset reads `**` only as a whole path segment and refuses nested alternatives, so the
//! rules are matched here: the pattern is compiled to a small automaton and a text is run
//! through it once, whatever the `*`s (a page path is matched against every rule).

/// A compiled Hugo glob.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HugoGlob {
    /// The automaton's states.
    states: Vec<State>,
    start: usize,
    /// The character `*` and `?` do not take: `/` (`.` for a sites matrix's values).
    sep: char,
    /// Pattern and text are lower-cased (not a sites matrix's).
    lower: bool,
}

/// One state of the automaton.
#[derive(Clone, Debug, PartialEq, Eq)]
enum State {
    /// Takes this character, then goes to `.1`.
    Char(char, usize),
    /// Takes one character of the set, then goes to `.1`.
    Set(Set, usize),
    /// `?`: takes one character but the separator, then goes to `.0`.
    One(usize),
    /// `*` (`cross` false: not the separator) or `**`: takes characters and stays, or goes
    /// on to `next`.
    Star { cross: bool, next: usize },
    /// `{a,b}`: goes on to each alternative's start.
    Split(Vec<usize>),
    /// The whole text matched.
    Done,
}

/// `[...]`: a list of characters or a range, maybe negated.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Set {
    not: bool,
    chars: Vec<char>,
    range: Option<(char, char)>,
}

impl Set {
    fn has(&self, c: char) -> bool {
        let inside = match self.range {
            Some((lo, hi)) => lo <= c && c <= hi,
            None => self.chars.contains(&c),
        };
        inside != self.not
    }
}

/// A piece of a parsed pattern.
#[derive(Debug)]
enum Node {
    Text(Vec<char>),
    Any,
    Super,
    Single,
    Set(Set),
    Alt(Vec<Vec<Node>>),
}

impl HugoGlob {
    /// Compiles a path glob (`hglob.GetGlob`: lower-cased, `/` the separator); the error
    /// says what Hugo's glob parser says.
    pub fn new(pattern: &str) -> Result<HugoGlob, String> {
        HugoGlob::compile(&go_lower(pattern), '/', true)
    }

    /// Compiles a glob of a sites matrix (`hglob.GetGlobDot`: as written, `.` the
    /// separator).
    pub fn dotted(pattern: &str) -> Result<HugoGlob, String> {
        HugoGlob::compile(pattern, '.', false)
    }

    fn compile(pattern: &str, sep: char, lower: bool) -> Result<HugoGlob, String> {
        let mut p = Parser {
            chars: pattern.chars().collect(),
            pos: 0,
        };
        let nodes = p.sequence(0)?;
        let mut states = vec![State::Done];
        let start = compile(&nodes, 0, &mut states);
        Ok(HugoGlob {
            states,
            start,
            sep,
            lower,
        })
    }

    /// Whether the whole of `text` matches (lower-cased first for a path glob).
    pub fn is_match(&self, text: &str) -> bool {
        let lowered;
        let text = if self.lower {
            lowered = go_lower(text);
            &lowered
        } else {
            text
        };
        let n = self.states.len();
        let (mut now, mut next) = (Vec::with_capacity(n), Vec::with_capacity(n));
        let mut seen = vec![false; n];
        self.enter(self.start, &mut now, &mut seen);
        for c in text.chars() {
            seen.iter_mut().for_each(|s| *s = false);
            next.clear();
            for &s in &now {
                let to = match &self.states[s] {
                    State::Char(x, to) if *x == c => *to,
                    State::Set(set, to) if set.has(c) => *to,
                    State::One(to) if c != self.sep => *to,
                    State::Star { cross, .. } if *cross || c != self.sep => s,
                    _ => continue,
                };
                self.enter(to, &mut next, &mut seen);
            }
            std::mem::swap(&mut now, &mut next);
            if now.is_empty() {
                return false;
            }
        }
        now.iter().any(|&s| self.states[s] == State::Done)
    }

    /// Adds state `s` to `set` with every state reached from it without taking a character.
    fn enter(&self, s: usize, set: &mut Vec<usize>, seen: &mut [bool]) {
        if std::mem::replace(&mut seen[s], true) {
            return;
        }
        match &self.states[s] {
            State::Split(alts) => alts.iter().for_each(|&a| self.enter(a, set, seen)),
            State::Star { next, .. } => {
                set.push(s);
                self.enter(*next, set, seen);
            }
            _ => set.push(s),
        }
    }
}

/// Pushes the states of `nodes` followed by state `next`, last node first; returns the start.
fn compile(nodes: &[Node], mut next: usize, states: &mut Vec<State>) -> usize {
    let push = |s: State, states: &mut Vec<State>| {
        states.push(s);
        states.len() - 1
    };
    for node in nodes.iter().rev() {
        next = match node {
            Node::Text(t) => t
                .iter()
                .rev()
                .fold(next, |to, &c| push(State::Char(c, to), states)),
            Node::Any => push(State::Star { cross: false, next }, states),
            Node::Super => push(State::Star { cross: true, next }, states),
            Node::Single => push(State::One(next), states),
            Node::Set(set) => push(State::Set(set.clone(), next), states),
            Node::Alt(alts) => {
                let starts = alts.iter().map(|a| compile(a, next, states)).collect();
                push(State::Split(starts), states)
            }
        };
    }
    next
}

/// Reads a pattern as gobwas/glob's lexer and parser do.
struct Parser {
    chars: Vec<char>,
    pos: usize,
}

impl Parser {
    fn error(&self, what: &str) -> String {
        format!("glob syntax error at {}: {what}", self.pos)
    }

    /// The nodes up to the end, or (`depth` > 0, inside `{}`) up to the `,` or `}` that
    /// ends this alternative (left for the caller).
    fn sequence(&mut self, depth: usize) -> Result<Vec<Node>, String> {
        let mut nodes = Vec::new();
        while let Some(&c) = self.chars.get(self.pos) {
            match c {
                ',' | '}' if depth > 0 => break,
                '{' => {
                    self.pos += 1;
                    nodes.push(self.alternatives(depth + 1)?);
                }
                '[' => {
                    self.pos += 1;
                    nodes.push(Node::Set(self.set()?));
                }
                '?' => {
                    self.pos += 1;
                    nodes.push(Node::Single);
                }
                '*' => {
                    self.pos += 1;
                    let twice = self.chars.get(self.pos) == Some(&'*');
                    self.pos += usize::from(twice);
                    nodes.push(if twice { Node::Super } else { Node::Any });
                }
                _ => nodes.push(Node::Text(self.text(depth > 0)?)),
            }
        }
        Ok(nodes)
    }

    /// After a `{`: the alternatives up to its `}`.
    fn alternatives(&mut self, depth: usize) -> Result<Node, String> {
        let mut alts = vec![self.sequence(depth)?];
        loop {
            match self.chars.get(self.pos) {
                Some(',') => {
                    self.pos += 1;
                    alts.push(self.sequence(depth)?);
                }
                Some('}') => {
                    self.pos += 1;
                    return Ok(Node::Alt(alts));
                }
                _ => return Err(self.error("unclosed `{`")),
            }
        }
    }

    /// Literal text up to the next special character (`,` and `}` too inside `{}`); `\`
    /// takes the next character as it is.
    fn text(&mut self, in_terms: bool) -> Result<Vec<char>, String> {
        let mut out = Vec::new();
        while let Some(&c) = self.chars.get(self.pos) {
            let breaks = matches!(c, '?' | '*' | '[' | '{') || (in_terms && matches!(c, ',' | '}'));
            if breaks {
                break;
            }
            self.pos += 1;
            if c == '\\' {
                let Some(&next) = self.chars.get(self.pos) else {
                    return Err(self.error("trailing backslash"));
                };
                self.pos += 1;
                out.push(next);
            } else {
                out.push(c);
            }
        }
        Ok(out)
    }

    /// After a `[`: `!` first negates; `a-z` is a range (any `lo`, `-`, any `hi`, then
    /// `]`); anything else is a list of characters up to the `]`.
    fn set(&mut self) -> Result<Set, String> {
        let mut set = Set {
            not: false,
            chars: Vec::new(),
            range: None,
        };
        let end = |p: &Parser| p.error("unexpected end of input");
        let mut c = *self.chars.get(self.pos).ok_or_else(|| end(self))?;
        if c == '!' {
            set.not = true;
            self.pos += 1;
            c = *self.chars.get(self.pos).ok_or_else(|| end(self))?;
        }
        if self.chars.get(self.pos + 1) == Some(&'-') {
            let hi = *self.chars.get(self.pos + 2).ok_or_else(|| end(self))?;
            self.pos += 3;
            // The lexer reads the whole set before the parser compares the bounds.
            match self.chars.get(self.pos) {
                Some(']') => self.pos += 1,
                Some(_) => return Err(self.error("expected close range character")),
                None => return Err(end(self)),
            }
            if hi < c {
                return Err(self.error("range hi character is less than lo"));
            }
            set.range = Some((c, hi));
            return Ok(set);
        }
        while let Some(&c) = self.chars.get(self.pos) {
            self.pos += 1;
            match c {
                ']' if set.chars.is_empty() => return Err(self.error("could not parse range")),
                ']' => return Ok(set),
                '\\' => match self.chars.get(self.pos) {
                    Some(&next) => {
                        self.pos += 1;
                        set.chars.push(next);
                    }
                    None => return Err(self.error("trailing backslash")),
                },
                c => set.chars.push(c),
            }
        }
        Err(end(self))
    }
}

/// Go's `strings.ToLower`: one character in, one out (`İ` becomes `i`).
pub(crate) fn go_lower(s: &str) -> String {
    s.chars()
        .map(|c| c.to_lowercase().next().unwrap_or(c))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page paths of the site the real Hugo 0.168.0 matched each pattern against.
    const PATHS: [&str; 21] = [
        "/a", "/a/b", "/a/b/c", "/ab", "/a.b", "/x/y/z", "/a,b", "/a}b", "/a{b", "/a*b", "/a?b",
        "/b", "/c", "/-", "/a/bc", "/a/b/c/d", "/ä", "/a]b", "/a[b", "/a\\b", "/a!b",
    ];

    #[test]
    fn globs_match_the_paths_hugo_matched() {
        // (pattern, the paths Hugo 0.168.0 gave the rule's permalink), each seen in its
        // sitemap: one rule `kind = 'page'`, `path = pattern`, on a page per path.
        let cases: &[(&str, &[&str])] = &[
            ("/a/*", &["/a/b", "/a/bc"]),
            ("/a*c", &[]),
            ("*", &[]),
            ("/a/**/c", &["/a/b/c"]),
            ("/**/c", &["/a/b/c"]),
            ("/**c", &["/a/b/c", "/c", "/a/bc"]),
            ("/?", &["/a", "/b", "/c", "/-", "/ä"]),
            ("/a/?", &["/a/b"]),
            ("/?/?", &["/a/b"]),
            ("/[ab]", &["/a", "/b"]),
            ("/[!ab]", &["/c", "/-", "/ä"]),
            ("/[^ab]", &["/a", "/b"]),
            ("/[a-c]", &["/a", "/b", "/c"]),
            ("/[!a-c]", &["/-", "/ä"]),
            ("/[ab-c]", &["/a", "/b", "/c", "/-"]),
            ("/[-a]", &["/a", "/-"]),
            ("/[a\\-c]", &["/a", "/c", "/-"]),
            ("/a[/]b", &["/a/b"]),
            ("/a[*]b", &["/a*b"]),
            ("/a\\*b", &["/a*b"]),
            ("/a\\b", &["/ab"]),
            ("/a\\\\b", &["/a\\b"]),
            ("/a[\\]]b", &["/a]b"]),
            ("/a,b", &["/a,b"]),
            ("/a}b", &["/a}b"]),
            ("/a]b", &["/a]b"]),
            ("/{a\\,b}", &["/a,b"]),
            ("/{a,b}", &["/a", "/b"]),
            ("/{a,{b,c}}", &["/a", "/b", "/c"]),
            ("/{a,b}/**", &["/a/b", "/a/b/c", "/a/bc", "/a/b/c/d"]),
            ("/a{,/b}", &["/a", "/a/b"]),
            ("/{a,}", &["/a"]),
            ("/{}", &[]),
            ("/{a/b,a}/c", &["/a/b/c"]),
            ("/{a/*,x/**}", &["/a/b", "/x/y/z", "/a/bc"]),
            ("/a/b**", &["/a/b", "/a/b/c", "/a/bc", "/a/b/c/d"]),
            ("/**/**", &["/a/b", "/a/b/c", "/x/y/z", "/a/bc", "/a/b/c/d"]),
            ("/A", &["/a"]),
            ("/Ä", &["/ä"]),
            ("/a/b/", &[]),
            ("/a/**/", &[]),
        ];
        for (pattern, want) in cases {
            let g = HugoGlob::new(pattern).unwrap();
            let got: Vec<&str> = PATHS.iter().copied().filter(|p| g.is_match(p)).collect();
            assert_eq!(&got, want, "{pattern}");
        }
        let all = HugoGlob::new("/**").unwrap();
        assert!(PATHS.iter().all(|p| all.is_match(p)));
        let one = HugoGlob::new("/*").unwrap();
        assert_eq!(PATHS.iter().filter(|p| one.is_match(p)).count(), 16);
    }

    #[test]
    fn globs_hugo_refuses_are_errors() {
        // Each stopped Hugo 0.168.0 ("failed to compile permalink target").
        for (pattern, what) in [
            ("/a{b", "unclosed `{`"),
            ("{", "unclosed `{`"),
            ("/{a", "unclosed `{`"),
            ("/a[b", "unexpected end of input"),
            ("[", "unexpected end of input"),
            ("/[ab", "unexpected end of input"),
            ("/[a-]", "unexpected end of input"),
            ("/[]", "could not parse range"),
            ("/[!]", "could not parse range"),
            ("/[z-a]", "range hi character is less than lo"),
            ("/[a-cx]", "expected close range character"),
            ("/a[\\-]b", "expected close range character"),
            ("/a\\", "trailing backslash"),
        ] {
            let err = HugoGlob::new(pattern).unwrap_err();
            assert!(err.contains(what), "{pattern}: {err}");
        }
        // Hugo built with these.
        for pattern in ["/a}", "/a]", "/[\\]]", "/{,}", "**"] {
            assert!(HugoGlob::new(pattern).is_ok(), "{pattern}");
        }
    }

    #[test]
    fn many_stars_stay_linear() {
        let g = HugoGlob::new(&"/**".repeat(40)).unwrap();
        let long = "/a".repeat(2000);
        assert!(g.is_match(&long));
        assert!(!g.is_match(&long[..60]));
    }
}
