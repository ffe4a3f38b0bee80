//! Parity with Hugo: for each reference case (copied from ../shared/parity into
//! tests/fixtures/parity), sitemapgen lists the same URLs as Hugo's own sitemap, except the
//! deliberate differences each case names.

mod common;

use common::parity::assert_parity;

#[test]
fn hugo_01_plain_pages() {
    assert_parity("hugo/01-plain-pages", &[], false, &[]);
}

#[test]
fn hugo_02_sections() {
    assert_parity("hugo/02-sections", &[], false, &[]);
}

#[test]
fn hugo_03_leaf_bundles() {
    assert_parity("hugo/03-leaf-bundles", &[], false, &[]);
}
