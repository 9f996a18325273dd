package robots

import "fmt"

// Severity says how much a Diagnostic matters. An Error marks a line whose
// intent is lost (a misspelt rule that no crawler applies, an invalid
// Crawl-delay, a rule outside any group) or a file that is not a robots.txt
// at all; a Warning marks a line that is read, but not the way every crawler
// reads it.
type Severity uint8

const (
	// Warning: the line is understood, or ignoring it changes nothing that
	// the file's author can have meant.
	Warning Severity = iota
	// Error: something the author wrote does not take effect, or the file is
	// not what a robots.txt must be. `crawlaudit lint` exits 1 on any Error.
	Error
)

// String returns "warning" or "error".
func (s Severity) String() string {
	if s == Error {
		return "error"
	}
	return "warning"
}

// Code names the kind of a Diagnostic. Codes are stable strings, suitable for
// filtering and for counting over a corpus.
type Code string

// The diagnostic codes Parse reports.
const (
	CodeUnknownKey        Code = "unknown-key"          // a key no profile reads (kept, ignored)
	CodeMisspelledKey     Code = "misspelled-key"       // an unknown key close to a known one ("dissallow")
	CodeMissingColon      Code = "missing-colon"        // "user-agent FooBot": read as if the colon were there
	CodeRuleOutsideGroup  Code = "rule-outside-group"   // Allow/Disallow/extension before any User-agent line
	CodeInvalidCrawlDelay Code = "invalid-crawl-delay"  // Crawl-delay that is not a non-negative decimal number
	CodeInvalidCacheDelay Code = "invalid-cache-delay"  // Cache-delay that is not a non-negative decimal number
	CodeInvalidRate       Code = "invalid-request-rate" // Request-rate that is not n/t[smhd] [HHMM-HHMM]
	CodeInvalidVisitTime  Code = "invalid-visit-time"   // Visit-time that is not HHMM-HHMM
	CodeDuplicateVisit    Code = "duplicate-visit-time" // more than one Visit-time in a group
	CodeInvalidAgent      Code = "invalid-user-agent"   // a User-agent value with no product token in it
	CodeAgentNotToken     Code = "agent-not-token"      // a User-agent value cut to its leading product token
	CodeMultipleStar      Code = "multiple-star-groups" // more than one group for "*"
	CodeBlankLineInGroup  Code = "blank-line-in-group"  // a blank line inside a group: ends the record for koster1996/orig1994
	CodePatternNotPath    Code = "pattern-not-path"     // a non-empty Allow/Disallow value that starts with neither "/" nor "*"
	CodeLineTooLong       Code = "line-too-long"        // a line longer than MaxLineBytes
	CodeFileTooLarge      Code = "file-too-large"       // more than MaxFileBytes: the rest is not parsed
	CodeNotUTF8           Code = "not-utf8"             // bytes that are not UTF-8
	CodeControlChar       Code = "control-char"         // NUL or other control characters (binary junk)
	CodeHTML              Code = "looks-like-html"      // an HTML page served as robots.txt
	CodeEmptyCleanParam   Code = "invalid-clean-param"  // Clean-param without parameters
	CodeUTF16             Code = "utf-16"               // UTF-16 text: crawlers read UTF-8 and find no rule in it
	CodeCompressed        Code = "compressed"           // gzip, zstd, bzip2, xz or zip data served as robots.txt
	CodeBinary            Code = "binary"               // control characters and not a single directive: not a text file
	// Robot-version (seed 000), as the spc2 profile reads it.
	CodeInvalidVersion      Code = "invalid-robot-version"      // a Robot-version that is not 1.x.y or 2.x.y
	CodeVersionNotFirst     Code = "robot-version-not-first"    // a Robot-version after another group line: the group is 1.0.0
	CodeDuplicateVersion    Code = "duplicate-robot-version"    // more than one Robot-version in a group
	CodeExperimentalVersion Code = "experimental-robot-version" // an odd minor version: spc2 ignores the group
	// AI-use preferences: Content-Usage (draft-ietf-aipref-attach) and
	// Content-Signal (draft-romm-aipref-contentsignals); see pref.go.
	CodePrefMalformed      Code = "preference-malformed"       // a value that is not an RFC 9651 dictionary: every preference unknown
	CodePrefEmpty          Code = "preference-empty"           // a line that states no preference
	CodePrefUnknownLabel   Code = "preference-unknown-label"   // a label the vocabulary does not define (or the other directive's)
	CodePrefObsoleteLabel  Code = "preference-obsolete-label"  // a label of an earlier draft ("ai=n"), ignored by the current one
	CodePrefBadValue       Code = "preference-bad-value"       // a value other than y/n (yes/no for Content-Signal)
	CodePrefDuplicateLabel Code = "preference-duplicate-label" // a label twice in one line: the last wins
	CodePrefDuplicate      Code = "preference-duplicate"       // two lines for the same path in one group (or both outside any group)
	CodePrefShadowed       Code = "preference-shadowed"        // a path's line leaves unknown what a broader line states
)

// notRobotsCodes are the codes of a file that is plainly not a robots.txt:
// the wrong file given or served, not a robots.txt with mistakes in it.
var notRobotsCodes = []Code{CodeHTML, CodeUTF16, CodeCompressed, CodeBinary}

// Diagnostic is one finding about a robots.txt file. Parse never fails: what
// it cannot read becomes a Diagnostic and the rest of the file is read.
type Diagnostic struct {
	Line     int // 1-based line number the finding is about
	Severity Severity
	Code     Code
	Message  string // one line, without the file name or line number
}

// String formats d as "line: severity: message", the form lint prints after
// the file name.
func (d Diagnostic) String() string {
	return fmt.Sprintf("%d: %s: %s", d.Line, d.Severity, d.Message)
}
