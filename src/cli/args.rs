//! The command line: clap's structs, and what they say to the library.

use clap::{Parser, Subcommand, ValueEnum};
use sitemapgen::host::HostSetting;
use sitemapgen::settings::{GitFetch, Overrides, Style};
use std::path::PathBuf;

/// Writes sitemap.xml for Zola and Hugo sites.
#[derive(Parser, Debug)]
#[command(name = "sitemapgen", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// sitemap.toml to read (default: SITE/sitemap.toml when present, SITE being --site or
    /// the current folder).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The site root, where its zola.toml/config.toml/hugo.toml lives (default: site_dir in
    /// sitemap.toml, else the current folder).
    #[arg(long, global = true, value_name = "DIR")]
    pub site: Option<PathBuf>,
    /// The content folder (default: content_dir in sitemap.toml, else the site's own:
    /// Hugo's contentDir, else SITE/content).
    #[arg(long, global = true, value_name = "DIR")]
    pub content: Option<PathBuf>,
    /// Where to write the sitemap (default: output_dir in sitemap.toml, else the site's own:
    /// Hugo's publishDir or Zola's output_dir, else SITE/public).
    #[arg(long, global = true, value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// The site's public URL (default: from sitemap.toml or the site's config).
    #[arg(long, global = true, value_name = "URL")]
    pub base_url: Option<String>,
    /// Site conventions (default: detected from the site's config).
    #[arg(long, global = true, value_enum)]
    pub style: Option<StyleArg>,
    /// The Hugo release the site is built with, e.g. 0.168.0 (default: sitemap.toml's
    /// hugo_version, $HUGO_VERSION, `hugo version`, else the current Hugo).
    #[arg(long, global = true, value_name = "X.Y.Z")]
    pub hugo_version: Option<String>,
    /// List draft pages too.
    #[arg(long, global = true)]
    pub drafts: bool,
    /// List pages with a future publish date.
    #[arg(long, global = true)]
    pub future: bool,
    /// List pages whose expiry date has passed.
    #[arg(long, global = true)]
    pub expired: bool,
    /// Write sitemap.xml.gz.
    #[arg(long, global = true)]
    pub gzip: bool,
    /// Hugo's environment: which config/<ENV>/ folder applies (default: HUGO_ENVIRONMENT,
    /// else production).
    #[arg(long, global = true, value_name = "ENV")]
    pub environment: Option<String>,
    /// Do not audit the built output folder (see `audit` in sitemap.toml).
    #[arg(long, global = true)]
    pub no_audit: bool,
    /// In a shallow clone, fetch the history git dates need (default: auto when CI is set,
    /// else never; see git_fetch in sitemap.toml).
    #[arg(long, global = true, value_enum, value_name = "WHEN")]
    pub git_fetch: Option<GitFetchArg>,
    /// The platform that serves the site: auto (detected from its files), netlify,
    /// cloudflare-pages, vercel, github-pages or plain.
    #[arg(long, global = true, value_name = "HOST", value_parser = parse_host)]
    pub host: Option<HostSetting>,
    /// Print nothing but errors.
    #[arg(long, short, global = true)]
    pub quiet: bool,
    /// Print what was left out and why, and where dates came from.
    #[arg(long, short, global = true)]
    pub verbose: bool,
    /// Output format: text, json (summary), jsonl (list), markdown (diff).
    #[arg(long, global = true, value_enum, default_value = "text")]
    pub format: Format,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Write the sitemap (the default).
    Build,
    /// Write nothing; exit 1 when the sitemap on disk differs from what build would write.
    Check,
    /// Check sitemap files (.xml or .xml.gz) against the protocol.
    Validate {
        /// The files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Print the URLs build would write, with their fields.
    List {
        /// Print the pages left out, and why, instead.
        #[arg(long, conflicts_with = "unsourced")]
        excluded: bool,
        /// Print the built pages no content file accounts for, instead.
        #[arg(long)]
        unsourced: bool,
        /// Print a first line naming the columns (text output; JSON lines name their fields).
        #[arg(long)]
        header: bool,
    },
    /// Write a commented sitemap.toml for the site in --site (default .); never overwrites.
    Init,
    /// Print the URLs added, removed, and whose lastmod moved from OLD to NEW; exit 0 when
    /// nothing changed, 1 when something did.
    Diff {
        /// The old sitemap or index: a file (.xml or .xml.gz) or an http(s):// URL (an
        /// index is followed to its parts).
        old: String,
        /// The new one, likewise (default: what build would write now).
        new: Option<String>,
        /// Most URLs of each kind in Markdown output; the rest are counted.
        #[arg(long, value_name = "N", default_value_t = 50)]
        max_listed: usize,
    },
    /// Tell search engines (IndexNow) which URLs changed since they last heard: added,
    /// re-dated and removed ones. Run it after the deploy (needs the cargo feature `net`).
    Submit {
        /// The baseline: a sitemap file or URL (e.g. the live one, saved before the deploy).
        /// Default: the state file, else the live sitemap.
        #[arg(long, value_name = "OLD")]
        since: Option<String>,
        /// The state file: what this site last submitted (default: in the user's cache
        /// folder; name one to keep it in a CI cache).
        #[arg(long, value_name = "FILE")]
        state: Option<PathBuf>,
        /// Where to send (default: indexnow_endpoint in sitemap.toml, else
        /// https://api.indexnow.org/indexnow).
        #[arg(long, value_name = "URL")]
        endpoint: Option<String>,
        /// Print what would be sent; send nothing, keep the state file as it is.
        #[arg(long)]
        dry_run: bool,
    },
    /// Write one HTML page for people: what is listed, what was left out and why, where each
    /// date came from, what the host decided (`--format markdown`: the same for a GitHub job
    /// summary, on stdout unless --out).
    Report {
        /// The file to write (default: sitemap-report.html in the current folder, never the
        /// output folder unless named; a file there that is not a report is never replaced).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// An older sitemap or index to compare with: a file or an http(s):// URL, as `diff`
        /// takes.
        #[arg(long, value_name = "OLD")]
        against: Option<String>,
    },
}

/// `--style`: the site conventions to follow.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum StyleArg {
    Zola,
    Hugo,
    Plain,
}

/// `--git-fetch`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum GitFetchArg {
    Never,
    Auto,
}

/// Output format of summaries and lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For people.
    Text,
    /// One JSON object (the build summary, check's report, validate's findings).
    Json,
    /// One JSON object per line (`list`).
    Jsonl,
    /// Markdown, for a pull-request comment or a job summary (`diff`).
    Markdown,
}

/// `--host`'s value.
fn parse_host(s: &str) -> Result<HostSetting, String> {
    s.parse()
}

/// How much to say.
#[derive(Clone, Copy, Debug)]
pub struct Verbosity {
    /// Errors only.
    pub quiet: bool,
    /// Everything.
    pub verbose: bool,
}

impl Cli {
    /// What the command line overrides in the site's settings.
    pub fn overrides(&self) -> Overrides {
        Overrides {
            config: self.config.clone(),
            site: self.site.clone(),
            content: self.content.clone(),
            output: self.output.clone(),
            base_url: self.base_url.clone(),
            style: self.style.map(|s| match s {
                StyleArg::Zola => Style::Zola,
                StyleArg::Hugo => Style::Hugo,
                StyleArg::Plain => Style::Plain,
            }),
            drafts: self.drafts,
            future: self.future,
            expired: self.expired,
            gzip: self.gzip,
            environment: self.environment.clone(),
            hugo_version: self.hugo_version.clone(),
            no_audit: self.no_audit,
            git_fetch: self.git_fetch.map(|f| match f {
                GitFetchArg::Never => GitFetch::Never,
                GitFetchArg::Auto => GitFetch::Auto,
            }),
            host: self.host,
            from_flags: true,
        }
    }

    /// `--quiet` and `--verbose`.
    pub fn verbosity(&self) -> Verbosity {
        Verbosity {
            quiet: self.quiet,
            verbose: self.verbose,
        }
    }
}
