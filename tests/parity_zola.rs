//! Parity with Zola: for each reference case (copied from ../shared/parity into
//! tests/fixtures/parity), sitemapgen lists the same URLs as Zola's own sitemap, except the
//! deliberate differences each case names.

mod common;

use common::parity::assert_parity;

#[test]
fn zola_01_plain_pages() {
    assert_parity("zola/01-plain-pages", &[], false, &[]);
}

#[test]
fn zola_02_nested_sections() {
    assert_parity("zola/02-nested-sections", &[], false, &[]);
}

#[test]
fn zola_03_colocated() {
    assert_parity("zola/03-colocated", &[], false, &[]);
}
