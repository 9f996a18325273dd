// Package history loads the history of a site's robots.txt — every version
// with the instant it went live — and answers which version was in effect at
// a given time on a given host. It does not parse robots.txt:
// the audit compiles each Version's Data with package robots, once, indexed
// by Version.ID.
//
// # Sources
//
// Load takes the --robots SRC of the audit command:
//
//   - A regular file: one version, in effect for all time (Version.Start is
//     the zero time).
//   - A directory of versions named by the UTC instant they went live:
//     2026-10-01T00:00:00Z.txt (RFC 3339; fractional seconds and a numeric
//     offset are accepted and converted to UTC), 2026-10-01.txt (midnight
//     UTC) or 20261001T000000Z.txt. The extension ".txt" is matched
//     case-insensitively.
//   - A directory with one subdirectory per host, each such a directory of
//     versions: DIR/example.com/2026-10-01T00:00:00Z.txt.
//   - git:REPO//PATH: every committed version of PATH in the git repository
//     REPO (a local work tree or bare repository), read with the git CLI.
//
// # Decisions
//
// Directory layout. A directory that holds version files (*.txt) is the flat
// layout; one that holds subdirectories is the per-host layout; one that
// holds both is an error naming one of each, and so is one that holds
// neither. In the per-host layout a host directory must hold version files
// only (a nested directory is an error). A *.txt file whose name is not one
// of the three instant forms is an error naming the file: it was surely meant
// as a version, and guessing its instant would judge requests by the wrong
// rules. A versions.json (written by crawlaudit history fetch) is read, not
// skipped: it gives each version's NotBefore, the earliest instant it can
// have gone live; a malformed one is an error naming it. Any other file
// (manifest.json, README.md, editor backups, dotfiles) and any hidden
// directory (.git) is skipped with a warning (Warnings). Two
// files naming the same instant for one host are an error naming both.
// Symbolic links are followed; a path that is not a regular file or
// directory (a FIFO, a device) is an error.
//
// Size. A version larger than MaxVersionBytes keeps its first MaxVersionBytes
// bytes, with a warning; robots.txt parsers read far less (RFC 9309 asks for
// at least 500 KiB), and the limit keeps a hostile SRC (a symbolic link to
// /dev/zero is refused anyway) from exhausting memory.
//
// Resolution. Instants are kept to the microsecond, the resolution of the
// log timestamps; finer digits in a file name are truncated.
//
// git. The versions are those of the first-parent history of HEAD (git log
// --first-parent --follow -- PATH): a change made on a branch goes live when
// it is merged, at the merge commit's time, which is when a deployment from
// the main branch would publish it. Renames of PATH are followed (as far as
// git's rename detection finds them); a commit that leaves the content as it
// was (a rename, a mode change) starts no new version. Each
// version is live from its committer date (not the author date: a rebased or
// cherry-picked commit is published when it is committed). A commit that
// deletes PATH starts a version with Deleted set and no Data: no robots.txt,
// which RFC 9309 §2.3.1.3 reads as "allow all" (an empty file compiles to
// exactly that). Committer clocks may be skewed: a version never starts
// before the one it replaces (its start is raised to its predecessor's), and
// of several versions with the same start only the newest is kept, with a
// warning (the others were never in effect). A submodule or symbolic link at
// PATH is an error naming the commit.
//
// Hosts. Host names are compared case-insensitively (ASCII), ignoring a port
// and trailing dots, with the brackets of an IPv6 literal removed (see
// NormalizeHost). "www.example.com" and "example.com" are different hosts:
// RFC 9309 §2.3 scopes a robots.txt to the host it is served from, and the
// two often serve different files. Internationalised names are compared as
// written (no IDNA mapping between "bücher.de" and "xn--bcher-kva.de").
//
// A file, a flat directory and a git history name no host. Without
// Options.Host such a history applies to every request, whatever host its
// log line carries (AnyHost reports this, so the audit can warn when the logs
// carry several hosts). With Options.Host it is the history of that host
// only: log lines without a host are judged by it, lines for another host are
// not in the history (Lookup answers false: unaudited).
//
// A per-host directory names its hosts. A log line carrying a host is judged
// by that host's history, or is unaudited when SRC has none for it. A log
// line carrying no host is judged by the history of Options.Host (which must
// be one of SRC's hosts), else by the only host of SRC when there is just
// one, else it is unaudited.
package history
