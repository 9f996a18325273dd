// Package wayback rebuilds the history of a site's robots.txt from the web
// archive's captures of it: the Internet Archive's Wayback Machine, or any
// archive serving the same CDX API and raw captures (pywb, OpenWayback).
//
// Fetch lists the captures of NAME/robots.txt through the CDX API
// ({archive}/cdx/search/cdx, JSON output, the first row naming the fields),
// reads the bodies it needs from {archive}/web/{timestamp}id_/{original} (the
// capture as served, unmodified), and writes a directory of versions in the
// layout robots/history loads (DIR/NAME/<instant>.txt) with a versions.json
// (history.Manifest) saying where each version came from.
//
// # Decisions
//
// Versions. In time order, a 200 capture whose content differs from the
// version before is a new version; a 4xx capture is a new, empty version
// (RFC 9309 §2.3.1.3: unavailable, allow all) unless the version before is
// already empty; 3xx, 5xx and any other status are listed in versions.json
// but make no version. "Differs" is first the archive's digest; a capture
// with a new digest whose body is byte for byte the version before's is a
// capture of that version, so that a re-encoding in the archive never makes
// a change the site never made. A revisit record (status "-") with the
// digest of the version before is a capture of it. A version's file is named
// by its first capture, when it was surely live; its not_before is the last
// capture of the version before, the earliest instant it can have gone live.
//
// Variants. The CDX API matches NAME/robots.txt with its scheme and a
// leading "www." removed, so the captures of http://, https://,
// http://www.NAME and https://www.NAME come together; each keeps its
// original URL in versions.json. Two captures of one second with different
// content cannot both start a version (the files would share a name): the
// second is listed without a version.
//
// Bad captures. A body that robots.Parse finds plainly not a robots.txt (an
// HTML page, most often the archive's own error page; binary or compressed
// data) or that is over 500 KiB, the most RFC 9309 §2.5 asks a crawler to
// parse, stops the fetch with an error naming the capture URL: written as a
// version it would judge a month of requests by rules no crawler read. The
// period can be narrowed with From and To to leave such a capture out.
//
// Politeness. At most Options.Rate requests per second to the archive; 429
// and 5xx answers and network errors are retried after Retry-After (seconds
// or an HTTP date) or an exponential backoff, a bounded number of times.
//
// Resuming. Bodies are never fetched twice: those of the versions already in
// DIR/NAME (by digest, from its versions.json) are read from there, and each
// body fetched is kept at once in DIR/.NAME.captures/ until the directory is
// written, so a run stopped half-way (an error, Ctrl-C) resumes where it
// stopped. The directory DIR/NAME itself is written whole or not at all: the
// new one is built beside it and put in its place in one step.
package wayback
