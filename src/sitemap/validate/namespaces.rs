//! Which namespace each element is in, as far as a sitemap cares: the document's own,
//! one of Google's extensions, another, or none.

use crate::vocab::protocol::{IMAGE_NS, NEWS_NS, VIDEO_NS, XHTML_NS};
use quick_xml::events::BytesStart;

/// Google's sitemap extensions (and XHTML for `<xhtml:link>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ext {
    Image,
    Video,
    News,
    Xhtml,
}

/// How a Start tag's namespace relates to the document.
pub(super) enum Ns {
    Doc,
    Known(Ext),
    Other(String),
    Unqualified,
    Unknown(String),
}

/// The namespace declarations in scope. quick-xml's NsReader does the same with more work per
/// event; sitemaps declare namespaces on the root only, so this stays a tiny vector.
#[derive(Default)]
pub(super) struct Scopes {
    /// (prefix, namespace URI, depth of the declaring element); the empty prefix is the default.
    bindings: Vec<(Vec<u8>, Vec<u8>, usize)>,
    depth: usize,
    /// Bytes of prefixes and URIs in `bindings`.
    bytes: usize,
}

/// What an element name resolves to.
pub(super) enum Resolved<'a> {
    /// Index of the binding, and its URI.
    Bound(usize, &'a [u8]),
    Unbound,
    Unknown(&'a [u8]),
}

impl Scopes {
    /// Enters an element, taking in the namespaces it declares.
    pub(super) fn enter(&mut self, e: &BytesStart<'_>) {
        self.depth += 1;
        if !e.attributes_raw().windows(5).any(|w| w == b"xmlns") {
            return;
        }
        for a in e.attributes().flatten() {
            let key = a.key.as_ref();
            let prefix = if key == b"xmlns" {
                &[][..]
            } else if let Some(p) = key.strip_prefix(b"xmlns:") {
                p
            } else {
                continue;
            };
            self.bytes += prefix.len() + a.value.len();
            self.bindings
                .push((prefix.to_vec(), a.value.to_vec(), self.depth));
        }
    }

    /// Leaves the element entered last, dropping its declarations.
    pub(super) fn leave(&mut self) {
        while self.bindings.last().is_some_and(|b| b.2 == self.depth) {
            if let Some((p, u, _)) = self.bindings.pop() {
                self.bytes -= p.len() + u.len();
            }
        }
        self.depth = self.depth.saturating_sub(1);
    }

    /// Bytes of the declarations in scope.
    pub(super) fn bytes(&self) -> usize {
        self.bytes
    }

    /// The namespace of an element name's prefix.
    pub(super) fn resolve<'a>(&'a self, name: &'a [u8]) -> Resolved<'a> {
        let prefix = match name.iter().position(|&b| b == b':') {
            Some(i) => &name[..i],
            None => &[][..],
        };
        // Unprefixed names are nearly all of them: test the prefix length, not its bytes.
        let found = if prefix.is_empty() {
            self.bindings.iter().rposition(|b| b.0.is_empty())
        } else {
            self.bindings.iter().rposition(|b| b.0 == prefix)
        };
        match found.map(|i| (i, &self.bindings[i])) {
            // `xmlns=""` undeclares the default namespace.
            Some((_, b)) if b.1.is_empty() && prefix.is_empty() => Resolved::Unbound,
            Some((i, b)) => Resolved::Bound(i, &b.1),
            None if prefix.is_empty() => Resolved::Unbound,
            None => Resolved::Unknown(prefix),
        }
    }
}

/// `doc_binding` is the binding the root resolved to: a name resolving to it is in the
/// document's namespace without comparing URIs.
pub(super) fn classify(ns: Resolved<'_>, doc: Option<&[u8]>, doc_binding: Option<usize>) -> Ns {
    match ns {
        Resolved::Bound(i, _) if Some(i) == doc_binding => Ns::Doc,
        Resolved::Bound(_, n) => {
            if Some(n) == doc {
                Ns::Doc
            } else if n == IMAGE_NS.as_bytes() {
                Ns::Known(Ext::Image)
            } else if n == VIDEO_NS.as_bytes() {
                Ns::Known(Ext::Video)
            } else if n == NEWS_NS.as_bytes() {
                Ns::Known(Ext::News)
            } else if n == XHTML_NS.as_bytes() {
                Ns::Known(Ext::Xhtml)
            } else {
                Ns::Other(String::from_utf8_lossy(n).into_owned())
            }
        }
        Resolved::Unbound if doc.is_none() => Ns::Doc,
        Resolved::Unbound => Ns::Unqualified,
        Resolved::Unknown(p) => Ns::Unknown(String::from_utf8_lossy(p).into_owned()),
    }
}

/// True when `name` is a qualified name as Namespaces in XML 1.0 allows it: one name, or a
/// prefix and a local name joined by one colon, each an XML 1.0 (fifth edition) name without
/// a colon. Anything else is not well-formed to a namespace-aware parser (xmllint refuses it).
pub(super) fn is_qname(name: &[u8]) -> bool {
    let Ok(name) = std::str::from_utf8(name) else {
        return false;
    };
    let mut parts = name.split(':');
    let ok = |part: Option<&str>| {
        let mut chars = part.unwrap_or_default().chars();
        chars.next().is_some_and(is_name_start) && chars.all(is_name_char)
    };
    match (parts.next(), parts.next(), parts.next()) {
        (local, None, None) => ok(local),
        (prefix, local @ Some(_), None) => ok(prefix) && ok(local),
        _ => false,
    }
}

/// XML 1.0's NameStartChar, the colon left out.
fn is_name_start(c: char) -> bool {
    matches!(c,
        'A'..='Z' | '_' | 'a'..='z'
        | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}' | '\u{F8}'..='\u{2FF}'
        | '\u{370}'..='\u{37D}' | '\u{37F}'..='\u{1FFF}' | '\u{200C}'..='\u{200D}'
        | '\u{2070}'..='\u{218F}' | '\u{2C00}'..='\u{2FEF}' | '\u{3001}'..='\u{D7FF}'
        | '\u{F900}'..='\u{FDCF}' | '\u{FDF0}'..='\u{FFFD}' | '\u{10000}'..='\u{EFFFF}')
}

/// XML 1.0's NameChar, the colon left out.
fn is_name_char(c: char) -> bool {
    is_name_start(c)
        || matches!(c,
            '-' | '.' | '0'..='9' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
}

#[cfg(test)]
mod tests {
    use super::is_qname;

    #[test]
    fn qualified_names_as_namespaces_in_xml_allows_them() {
        for ok in [
            "url",
            "xhtml:link",
            "_a",
            "a-b.c1",
            "é",
            "a\u{B7}b",
            "x\u{300}",
            "\u{10000}",
        ] {
            assert!(is_qname(ok.as_bytes()), "{ok}");
        }
        for bad in [
            "",
            "1x",
            "-x",
            ".x",
            "lin{",
            "a{b",
            "a\"b",
            "x\u{A0}y",
            "a::b",
            ":a",
            "a:",
            "a:b:c",
            "a:1b",
            "a b",
            "\u{D7}",
            "x\u{FFFE}",
        ] {
            assert!(!is_qname(bad.as_bytes()), "{bad:?}");
        }
        assert!(!is_qname(b"a\xffb"));
    }
}
