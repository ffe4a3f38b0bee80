//! Which namespace each element is in, as far as a sitemap cares: the document's own,
//! one of Google's extensions, another, or none.

use super::super::protocol::{IMAGE_NS, NEWS_NS, VIDEO_NS, XHTML_NS};
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
