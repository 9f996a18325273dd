package ingest

import (
	"cmp"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
)

// Reasons under which the stream layer itself rejects lines, in addition to
// the parsers' reasons (logfmt.ErrBadTimestamp and so on).
const (
	// ErrLineTooLong: the line is longer than Options.MaxLineBytes.
	ErrLineTooLong logfmt.Reason = "line too long"
	// ErrTruncatedLine: the last line of a stream that ended with a read or
	// decompression error, cut short. It is the parsers' reason for a line
	// cut inside a quoted field (logfmt.ErrTruncatedLine): both are lines
	// cut short, counted together.
	ErrTruncatedLine = logfmt.ErrTruncatedLine
	// ErrUnknownFormat: every line of a file whose format could not be
	// detected (no format parsed any of its first lines).
	ErrUnknownFormat logfmt.Reason = "unknown format"
)

// Accounting is what a run read: the "input" object of summary.json
// plus samples of rejected lines and per-file details.
//
// Invariant: Parsed + Rejected = Lines, in total and per file. Lines counts
// every non-empty line that is a request or should have been one; empty lines
// are not counted, and directive lines (W3C "#Fields:", "#Version:" and the
// like, for which a parser returns logfmt.ErrDirective) are counted apart in
// Directives, not in Lines.
type Accounting struct {
	Files      int   `json:"files"`
	Lines      int64 `json:"lines"`
	Parsed     int64 `json:"parsed"`
	Rejected   int64 `json:"rejected"`
	Directives int64 `json:"directives"`
	// From and To are the earliest and latest timestamps of the parsed
	// rows (zero, and omitted from JSON, when nothing was parsed).
	From time.Time `json:"from,omitzero"`
	To   time.Time `json:"to,omitzero"`
	// RejectedReasons counts the rejected lines per reason.
	RejectedReasons map[string]int64 `json:"rejected_reasons"`
	// Samples holds the first rejected lines of each reason (at most
	// Options.SamplesPerReason each, the first by file order and line),
	// ordered by reason, file and line.
	Samples []Sample `json:"rejected_samples"`
	// InvalidClients counts, per reason (ClientNotAddress, ClientWithPort,
	// ClientWithZone, ClientHostname, ClientMissing), the parsed lines whose
	// client address is not a valid IP address: their rows hold "" in
	// client_ip. These lines are parsed, not rejected (a request happened);
	// nil when every client address was valid.
	InvalidClients map[string]int64 `json:"invalid_clients,omitempty"`
	// InvalidClientSamples holds the first of those lines per reason (at
	// most Options.SamplesPerReason each), ordered like Samples; their Text
	// is the client address as logged, cut to 64 bytes, with control
	// characters and invalid UTF-8 written as \xHH.
	InvalidClientSamples []Sample `json:"invalid_client_samples,omitempty"`
	// PerFile has one entry per input file, in input order.
	PerFile []FileAccounting `json:"per_file"`
	// Skipped lists the files found in directories or by globs that were
	// not read (hidden files, obvious non-logs).
	Skipped []SkippedFile `json:"skipped,omitempty"`
}

// FileAccounting is the accounting of one input file.
type FileAccounting struct {
	Name string `json:"name"`
	// Format is the name of the format the file was parsed as ("combined"),
	// detected or given; "" when no format could be detected.
	Format string `json:"format"`
	// Detected is true when Format was chosen by sniffing the file.
	Detected bool `json:"detected"`
	// Compression is "none", "gzip", "zstd" or "bzip2"; "" when the file
	// could not be opened.
	Compression string `json:"compression"`
	Lines       int64  `json:"lines"`
	Parsed      int64  `json:"parsed"`
	Rejected    int64  `json:"rejected"`
	Directives  int64  `json:"directives"`
	// RejectedReasons counts the file's rejected lines per reason.
	RejectedReasons map[string]int64 `json:"rejected_reasons,omitempty"`
	// InvalidClients counts the file's parsed lines per reason their client
	// address is invalid (see Accounting.InvalidClients).
	InvalidClients map[string]int64 `json:"invalid_clients,omitempty"`
	// BytesRead is the number of bytes read from the file, compressed bytes
	// for a compressed file.
	BytesRead int64 `json:"bytes_read"`
	// Error is the input error of the file ("" when it was read to its end).
	Error string `json:"error,omitempty"`
	// Integrity is set when the file is compressed and failed an integrity
	// check (see IntegrityError): what failed and where, without the file
	// name ("gzip member 2 (at byte offset 81234): integrity check failed
	// at byte offset 90001: gzip: invalid checksum"). Error is set too. The
	// lines read from such a file are damage, not data: their rows should
	// not be trusted. "" when the file passed its checks or is not
	// compressed; a compressed file merely cut short has Error only.
	Integrity string `json:"integrity,omitempty"`
}

// Sample is a rejected line shown to the user.
type Sample struct {
	Reason string `json:"reason"`
	File   string `json:"file"`
	Line   int64  `json:"line"`
	// Text is the line cut to 200 characters, invalid UTF-8 written as \xHH.
	Text string `json:"text"`
}

// sampleChars is the number of characters of a line kept in a Sample.
const sampleChars = 200

// sampleText makes the sample text of a line: valid UTF-8, at most
// sampleChars characters.
func sampleText(line []byte) string {
	if len(line) > sampleBytes {
		line = line[:sampleBytes]
	}
	s := string(appendRepaired(nil, line))
	if utf8.RuneCountInString(s) > sampleChars {
		i, n := 0, 0
		for i = range s {
			if n == sampleChars {
				break
			}
			n++
		}
		s = s[:i]
	}
	return s
}

// reasonCount is one reason and its count in blockStats.
type reasonCount struct {
	reason string
	n      int64
}

// blockStats is the accounting of one block, kept by a worker without
// locks and merged into its file's state once per block.
type blockStats struct {
	lines, parsed, rejected, directives int64
	minTime, maxTime                    int64
	hasTime                             bool
	reasons                             []reasonCount
	samples                             []Sample
	clients                             []reasonCount // invalid client addresses
	clientSamples                       []Sample
}

func (s *blockStats) reset() {
	*s = blockStats{reasons: s.reasons[:0], samples: s.samples[:0], clients: s.clients[:0], clientSamples: s.clientSamples[:0]}
}

// invalidClient counts a parsed line whose client address v is invalid,
// and keeps it as a sample when its reason has fewer than max samples in
// this block.
func (s *blockStats) invalidClient(reason string, file string, line int64, v []byte, max int) {
	for i := range s.clients {
		if s.clients[i].reason == reason {
			s.clients[i].n++
			if s.clients[i].n <= int64(max) {
				s.clientSamples = append(s.clientSamples, Sample{Reason: reason, File: file, Line: line, Text: clientSampleText(v)})
			}
			return
		}
	}
	s.clients = append(s.clients, reasonCount{reason: reason, n: 1})
	if max > 0 {
		s.clientSamples = append(s.clientSamples, Sample{Reason: reason, File: file, Line: line, Text: clientSampleText(v)})
	}
}

// reject counts a rejected line and keeps it as a sample when its reason has
// fewer than max samples in this block.
func (s *blockStats) reject(reason string, file string, line int64, text []byte, max int) {
	s.lines++
	s.rejected++
	for i := range s.reasons {
		if s.reasons[i].reason == reason {
			s.reasons[i].n++
			if s.reasons[i].n <= int64(max) {
				s.samples = append(s.samples, Sample{Reason: reason, File: file, Line: line, Text: sampleText(text)})
			}
			return
		}
	}
	s.reasons = append(s.reasons, reasonCount{reason: reason, n: 1})
	if max > 0 {
		s.samples = append(s.samples, Sample{Reason: reason, File: file, Line: line, Text: sampleText(text)})
	}
}

// fileState is a file being read: its accounting, merged from the blocks
// under mu, and its format once known.
type fileState struct {
	idx  int
	in   inputFile
	name []byte // in.name, for the file column
	fmt  *formatEntry

	mu      sync.Mutex
	acc     FileAccounting
	samples []Sample // the first samples per reason, by line
	// clientSamples: the first samples of invalid clients per reason.
	clientSamples []Sample
	minTime       int64
	maxTime       int64
	hasTime       bool
}

// merge adds the accounting of one block.
func (f *fileState) merge(s *blockStats, maxSamples int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.acc.Lines += s.lines
	f.acc.Parsed += s.parsed
	f.acc.Rejected += s.rejected
	f.acc.Directives += s.directives
	if len(s.reasons) > 0 && f.acc.RejectedReasons == nil {
		f.acc.RejectedReasons = map[string]int64{}
	}
	for _, r := range s.reasons {
		f.acc.RejectedReasons[r.reason] += r.n
	}
	if len(s.samples) > 0 {
		f.samples = append(f.samples, s.samples...)
		f.samples = firstSamples(f.samples, maxSamples)
	}
	if len(s.clients) > 0 && f.acc.InvalidClients == nil {
		f.acc.InvalidClients = map[string]int64{}
	}
	for _, r := range s.clients {
		f.acc.InvalidClients[r.reason] += r.n
	}
	if len(s.clientSamples) > 0 {
		f.clientSamples = append(f.clientSamples, s.clientSamples...)
		f.clientSamples = firstSamples(f.clientSamples, maxSamples)
	}
	if s.hasTime {
		if !f.hasTime || s.minTime < f.minTime {
			f.minTime = s.minTime
		}
		if !f.hasTime || s.maxTime > f.maxTime {
			f.maxTime = s.maxTime
		}
		f.hasTime = true
	}
}

// firstSamples sorts samples (all of one file) by reason and line and keeps
// the first max of each reason.
func firstSamples(samples []Sample, max int) []Sample {
	slices.SortFunc(samples, func(a, b Sample) int {
		return cmp.Or(cmp.Compare(a.Reason, b.Reason), cmp.Compare(a.Line, b.Line))
	})
	out := samples[:0]
	prev, k := "", 0
	for _, s := range samples {
		if s.Reason != prev {
			prev, k = s.Reason, 0
		}
		if k < max {
			out = append(out, s)
		}
		k++
	}
	return out
}

// total builds the Accounting of a run from its files.
func total(files []*fileState, skipped []SkippedFile, maxSamples int) *Accounting {
	acc := &Accounting{Files: len(files), RejectedReasons: map[string]int64{}, Skipped: skipped,
		PerFile: make([]FileAccounting, 0, len(files)), Samples: []Sample{}}
	var minT, maxT int64
	has := false
	perReason, perClientReason := map[string]int{}, map[string]int{}
	for _, f := range files {
		f.mu.Lock()
		fa := f.acc
		acc.Lines += fa.Lines
		acc.Parsed += fa.Parsed
		acc.Rejected += fa.Rejected
		acc.Directives += fa.Directives
		for r, n := range fa.RejectedReasons {
			acc.RejectedReasons[r] += n
		}
		for _, s := range f.samples {
			if perReason[s.Reason] < maxSamples {
				perReason[s.Reason]++
				acc.Samples = append(acc.Samples, s)
			}
		}
		for r, n := range fa.InvalidClients {
			if acc.InvalidClients == nil {
				acc.InvalidClients = map[string]int64{}
			}
			acc.InvalidClients[r] += n
		}
		for _, s := range f.clientSamples {
			if perClientReason[s.Reason] < maxSamples {
				perClientReason[s.Reason]++
				acc.InvalidClientSamples = append(acc.InvalidClientSamples, s)
			}
		}
		if f.hasTime {
			if !has || f.minTime < minT {
				minT = f.minTime
			}
			if !has || f.maxTime > maxT {
				maxT = f.maxTime
			}
			has = true
		}
		f.mu.Unlock()
		acc.PerFile = append(acc.PerFile, fa)
	}
	// Files are in input order, so a stable sort by reason keeps file and
	// line order within a reason.
	slices.SortStableFunc(acc.Samples, func(a, b Sample) int { return cmp.Compare(a.Reason, b.Reason) })
	slices.SortStableFunc(acc.InvalidClientSamples, func(a, b Sample) int { return cmp.Compare(a.Reason, b.Reason) })
	if has {
		acc.From = time.UnixMicro(minT).UTC()
		acc.To = time.UnixMicro(maxT).UTC()
	}
	return acc
}
