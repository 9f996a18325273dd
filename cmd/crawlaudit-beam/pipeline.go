package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/crawlaudit/crawlaudit/audit"
	"github.com/crawlaudit/crawlaudit/audit/measure"
	"github.com/crawlaudit/crawlaudit/ingest"
	"github.com/crawlaudit/crawlaudit/ingest/objstore"
	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/robots"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*logInput)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*logPiece)(nil)).Elem())
	register.DoFn3x1[context.Context, logInput, func(logPiece), error](&planFn{})
	register.Emitter1[logPiece]()
	register.DoFn2x1[logPiece, func([]byte), error](&countFn{})
	register.DoFn6x1[context.Context, logPiece, func(*[]byte) bool, func(string, []byte), func(string, []byte), func([]byte), error](&judgeFn{})
	register.Emitter2[string, []byte]()
	register.Emitter1[[]byte]()
	register.DoFn4x1[string, func(*[]byte) bool, func(*[]byte) bool, func([]byte), error](&availabilityFn{})
	register.DoFn6x1[string, func(*[]byte) bool, func(*[]byte) bool, func([]byte), func([]byte), func([]byte), error](&measureFn{})
	register.Iter1[[]byte]()
	register.DoFn7x1[context.Context, []byte, func(*[]byte) bool, func(*[]byte) bool, func(*[]byte) bool, func(*[]byte) bool, func(*[]byte) bool, error](&summarizeFn{})
}

// logInput is one LOG argument: the element a judging worker takes.
type logInput struct {
	// Index is its place among the LOG arguments: requests at the same
	// instant are taken in input order.
	Index int
	Path  string
}

// logPiece is what a judging worker reads: a whole LOG argument, or one
// byte range of a LOG argument that is a large plain file (--split-bytes).
type logPiece struct {
	// Index is the place of its LOG argument.
	Index int
	Path  string
	// Ranged: Range is a byte range of the file, read with
	// PartialAuditor.JudgeRange; else the whole argument is read (Judge).
	Ranged bool
	// Part is the range's place among the file's ranges (0 for a whole
	// argument): the parts of an input are put together in this order.
	Part  int
	Range ingest.Range
	// Objects are the URLs of the objects of a URL LOG argument (Path)
	// that the piece reads, each naming one object alone
	// (ingest.ObjectInputs); nil for a piece of files.
	Objects []string
	// File is the place of the piece's first file among the files of its
	// LOG argument (an object's among a prefix's): rows at one instant are
	// taken by input, then file.
	File int
	// Skipped are the objects of the LOG argument's prefix or glob that
	// are not read, carried by its first piece into the summary.
	Skipped []report.SkippedFile
	// ReadsNothing: every object the LOG argument lists is skipped; the
	// piece carries them and reads nothing.
	ReadsNothing bool
}

// newlineCount is the number of newlines of one range: the ranges after
// it number their lines from the counts before them.
type newlineCount struct {
	Index    int   `json:"index"`
	Part     int   `json:"part"`
	Newlines int64 `json:"newlines"`
}

// summaryFile is the name of the summary in the output directory.
const summaryFile = "summary.json"

// agentsFile is the name of the observed compliance per product token
// (report.WriteAgents) in the output directory, as `crawlaudit audit
// --out` names it.
const agentsFile = "agents.json"

// buildPipeline returns the audit of logs as a Beam pipeline that writes
// summary.json and agents.json into out:
//
//  1. one element per LOG argument (logInput);
//  2. plan (planFn): a LOG argument that is a plain file longer than
//     --split-bytes becomes its byte ranges (ingest.PlanRanges, in the
//     format detected on its first block), any other one piece, whole;
//     the pieces are spread over the workers (Reshuffle), and each range
//     but a file's last counts its newlines (countFn), a side input of
//     the judge: a range's first line number is 1 + the newlines before
//     it;
//  3. judge (judgeFn): each worker judges its pieces with
//     audit.PartialAuditor, the judge of `crawlaudit audit`, and emits
//     the bot requests keyed by bot, host and identity, in batches (one
//     Arrow IPC batch per key and up to 65,536 judged rows); the
//     /robots.txt responses keyed by host and operator; and the part's
//     accounting;
//  4. availability (availabilityFn), after a GroupByKey by host and
//     operator: the periods in which robots.txt was unreachable or
//     unavailable (queries/availability.sql);
//  5. measure (measureFn), after a GroupByKey by bot, host and identity:
//     per key, the verdicts the periods change, the requests in time order,
//     the window measures of queries/measures.sql and the counts of
//     queries/summary.sql: one summary row, what the key's requests add
//     to each period's counts, and the key's reactions to robots.txt
//     changes (keyChanges);
//  6. summarize (summarizeFn): one element that takes the parts, the rows,
//     the periods, their counts and the changes as side inputs, combines
//     them (combine) and writes summary.json and agents.json.
func buildPipeline(opt options, logs []string, out output) *beam.Pipeline {
	p, s := beam.NewPipelineWithRoot()
	inputs := make([]logInput, len(logs))
	for i, l := range logs {
		inputs[i] = logInput{Index: i, Path: l}
	}
	in := beam.CreateList(s.Scope("logs"), inputs)
	pieces := beam.ParDo(s.Scope("plan"), &planFn{Opt: opt}, in)
	pieces = beam.Reshuffle(s.Scope("spread"), pieces)
	newlines := beam.ParDo(s.Scope("count newlines"), &countFn{}, pieces)
	rows, fetches, parts := beam.ParDo3(s.Scope("judge"), &judgeFn{Opt: opt}, pieces, beam.SideInput{Input: newlines})
	byOperator := beam.GroupByKey(s.Scope("by host, operator"), fetches)
	periods := beam.ParDo(s.Scope("availability"), &availabilityFn{}, byOperator, beam.SideInput{Input: parts})
	byKey := beam.GroupByKey(s.Scope("by bot, host, identity"), rows)
	profile, _ := robots.ParseProfile(opt.Spec) // checked by options.config
	botRows, counts, changes := beam.ParDo3(s.Scope("measure"), &measureFn{Opt: opt, Google: profile == robots.Google}, byKey, beam.SideInput{Input: periods})
	beam.ParDo0(s.Scope("summarize"), &summarizeFn{Opt: opt, Out: out}, beam.Impulse(s),
		beam.SideInput{Input: parts}, beam.SideInput{Input: botRows}, beam.SideInput{Input: periods}, beam.SideInput{Input: counts},
		beam.SideInput{Input: changes})
	return p
}

// planFn cuts the LOG arguments that are large plain files into byte
// ranges (step 2 of buildPipeline).
type planFn struct {
	Opt   options `json:"opt"`
	ingst ingest.Options
}

// Setup takes the ingest options of the audit (format, layout, limits).
func (f *planFn) Setup() error {
	cfg, err := f.Opt.config()
	f.ingst = cfg.Ingest
	return err
}

// ProcessElement emits the pieces of one LOG argument: its ranges, or
// itself.
func (f *planFn) ProcessElement(ctx context.Context, in logInput, emit func(logPiece)) error {
	if objstore.IsURL(in.Path) {
		return planObjects(ctx, in, f.ingst, f.Opt.SplitBytes, emit)
	}
	// The launcher found every LOG argument: one missing here is a worker
	// that does not see the launcher's files (a job server's).
	if _, err := os.Stat(in.Path); errors.Is(err, fs.ErrNotExist) && !strings.ContainsAny(in.Path, "*?[") {
		wd, _ := os.Getwd()
		return fmt.Errorf("%s: not found by the worker (working in %s), though the launcher found it: give the LOG files at paths every worker sees (absolute, on a volume they share)", in.Path, wd)
	}
	ranges, err := ingest.PlanRanges(ctx, in.Path, f.Opt.SplitBytes, f.ingst)
	if err != nil {
		return fmt.Errorf("%s: %w", in.Path, err)
	}
	if len(ranges) < 2 {
		emit(logPiece{Index: in.Index, Path: in.Path})
		return nil
	}
	for i, r := range ranges {
		emit(logPiece{Index: in.Index, Path: in.Path, Ranged: true, Part: i, Range: r})
	}
	return nil
}

// maxObjectsPerPiece bounds the objects of one piece, so that an element
// of the pipeline stays small (their URLs) when a prefix holds many tiny
// objects, as CloudFront delivers them.
const maxObjectsPerPiece = 1000

// planObjects cuts the objects that the URL of in lists into pieces of
// consecutive objects of about splitBytes together (0: one piece), so
// that the objects of a prefix are read on as many workers, each opening
// its own (nothing is read here but the listing). The objects not read
// travel with the first piece. A listing that fails is left to the judge,
// which meets the same error and counts it as the audit does.
func planObjects(ctx context.Context, in logInput, opts ingest.Options, splitBytes int64, emit func(logPiece)) error {
	objs, skipped, err := ingest.ObjectInputs(ctx, in.Path, opts)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		emit(logPiece{Index: in.Index, Path: in.Path})
		return nil
	}
	var sk []report.SkippedFile
	for _, s := range skipped {
		sk = append(sk, report.SkippedFile{Name: s.Name, Reason: s.Reason})
	}
	if len(objs) == 0 {
		emit(logPiece{Index: in.Index, Path: in.Path, ReadsNothing: true, Skipped: sk})
		return nil
	}
	for part, g := range objectGroups(objs, splitBytes) {
		p := logPiece{Index: in.Index, Path: in.Path, Part: part, File: g[0]}
		for _, o := range objs[g[0]:g[1]] {
			p.Objects = append(p.Objects, o.URL)
		}
		if part == 0 {
			p.Skipped = sk
		}
		emit(p)
	}
	return nil
}

// objectGroups cuts objs, in order, into groups [start, end) of
// consecutive objects: a group ends once its objects hold splitBytes or
// more, or maxObjectsPerPiece objects; an object of unknown size is a
// group of its own. splitBytes 0 makes one group (of at most
// maxObjectsPerPiece objects).
func objectGroups(objs []ingest.ObjectInput, splitBytes int64) [][2]int {
	var groups [][2]int
	start, bytes := 0, int64(0)
	for i, o := range objs {
		if o.Size < 0 && i > start {
			groups = append(groups, [2]int{start, i})
			start, bytes = i, 0
		}
		bytes += max(o.Size, 0)
		if o.Size < 0 || i+1-start >= maxObjectsPerPiece || (splitBytes > 0 && bytes >= splitBytes) {
			groups = append(groups, [2]int{start, i + 1})
			start, bytes = i+1, 0
		}
	}
	if start < len(objs) {
		groups = append(groups, [2]int{start, len(objs)})
	}
	return groups
}

// countFn counts the newlines of a range that has ranges after it (step 2
// of buildPipeline).
type countFn struct{}

// ProcessElement emits the newline count of one range.
func (f *countFn) ProcessElement(p logPiece, emit func([]byte)) error {
	if !p.Ranged || p.Range.End == p.Range.Size {
		return nil
	}
	n, err := ingest.CountNewlines(p.Range.File, p.Range.Start, p.Range.End)
	if err != nil {
		// The file was readable when it was planned: the ranges after this
		// one cannot number their lines.
		return fmt.Errorf("counting the lines of bytes %d to %d: %w", p.Range.Start, p.Range.End, err)
	}
	data, err := json.Marshal(newlineCount{Index: p.Index, Part: p.Part, Newlines: n})
	if err != nil {
		return err
	}
	emit(data)
	return nil
}

// judgeFn judges LOG arguments and their ranges (step 3 of
// buildPipeline).
type judgeFn struct {
	Opt     options `json:"opt"`
	auditor *audit.PartialAuditor
	// newlines holds, by input and part, the newline counts of the ranges
	// (the side input, read once per instance: it is the same for every
	// element of this batch pipeline's one window).
	newlines map[int]map[int]int64
}

// Setup loads the robots.txt history and the range lists, once per worker
// instance.
func (f *judgeFn) Setup() error {
	cfg, err := f.Opt.config()
	if err != nil {
		return err
	}
	f.auditor, err = audit.NewPartialAuditor(cfg)
	return err
}

// ProcessElement judges one piece, emitting its requests by key, its
// /robots.txt responses by host and operator, and then its part.
func (f *judgeFn) ProcessElement(ctx context.Context, in logPiece, newlines func(*[]byte) bool, emitRows, emitFetches func(string, []byte), emitPart func([]byte)) error {
	// The files of the input (several for a directory or a glob) are
	// numbered as their rows come: rows at one instant are taken by
	// input, then file, then line (the file's, in a range too).
	files := map[string]int64{}
	var maxTS *int64
	sink := func(rec arrow.RecordBatch) error {
		return splitByKey(rec, in.Index, int64(in.File), files, &maxTS, emitRows, emitFetches)
	}
	name := objstore.Name(in.Path) // without a URL's query
	var p *audit.Partial
	var err error
	switch {
	case in.ReadsNothing:
		p, err = f.auditor.Judge(ctx, nil, sink)
	case in.Objects != nil:
		p, err = f.auditor.Judge(ctx, in.Objects, sink)
	case in.Ranged:
		r := in.Range
		if r.NewlinesBefore, err = f.newlinesBefore(in, newlines); err != nil {
			return err
		}
		p, err = f.auditor.JudgeRange(ctx, r, sink)
	default:
		p, err = f.auditor.Judge(ctx, []string{in.Path}, sink)
	}
	if p == nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if len(in.Skipped) > 0 {
		p.Input.Skipped = append(slices.Clip(in.Skipped), p.Input.Skipped...)
	}
	// An input error (an unreadable or truncated file) is in the part's
	// input; the summary decides.
	data, err := json.Marshal(partElement{Index: in.Index, Part: in.Part, Partial: *p, MaxTS: maxTS})
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	emitPart(data)
	return nil
}

// newlinesBefore returns the number of newlines before the range of in:
// the sum of the counts of the ranges before it.
func (f *judgeFn) newlinesBefore(in logPiece, counts func(*[]byte) bool) (int64, error) {
	if f.newlines == nil {
		f.newlines = map[int]map[int]int64{}
		var data []byte
		for counts(&data) {
			var c newlineCount
			if err := json.Unmarshal(data, &c); err != nil {
				return 0, fmt.Errorf("a newline count: %w", err)
			}
			if f.newlines[c.Index] == nil {
				f.newlines[c.Index] = map[int]int64{}
			}
			f.newlines[c.Index][c.Part] = c.Newlines
		}
	}
	var n int64
	for part := range in.Part {
		c, ok := f.newlines[in.Index][part]
		if !ok {
			return 0, fmt.Errorf("%s: no newline count of range %d", in.Path, part)
		}
		n += c
	}
	return n, nil
}

// splitByKey emits the rows of rec, a batch of audit.PartialSchema from
// the input of the given index, as one batch per key (emit), and its
// /robots.txt responses that may open or close a period of availability
// as one batch per host and operator (emitFetches): those of crawlers
// that are not spoofed nor user-triggered fetchers. files numbers the
// input's files, from fileBase (the place of the piece's first file among
// its input's); maxTS is raised to the latest request.
func splitByKey(rec arrow.RecordBatch, index int, fileBase int64, files map[string]int64, maxTS **int64, emit, emitFetches func(string, []byte)) error {
	if !rec.Schema().Equal(audit.PartialSchema) {
		return fmt.Errorf("judged batch of schema %s", rec.Schema())
	}
	var (
		ts       = rec.Column(audit.PartialTS).(*array.Timestamp)
		host     = rec.Column(audit.PartialHost).(*array.String)
		bot      = rec.Column(audit.PartialBot).(*array.String)
		identity = rec.Column(audit.PartialIdentity).(*array.Uint8)
		file     = rec.Column(audit.PartialFile).(*array.String)
		line     = rec.Column(audit.PartialLine).(*array.Int64)
		verdict  = rec.Column(audit.PartialVerdict).(*array.String)
		fetch    = rec.Column(audit.PartialRobotsFetch).(*array.Boolean)
		visit    = rec.Column(audit.PartialVisitBreach).(*array.Boolean)
		delay    = rec.Column(audit.PartialCrawlDelay).(*array.Float64)
		rateN    = rec.Column(audit.PartialRateRequests).(*array.Int32)
		rateS    = rec.Column(audit.PartialRateSeconds).(*array.Int32)
		ip       = rec.Column(audit.PartialClientIP).(*array.String)
		status   = rec.Column(audit.PartialStatus).(*array.Int32)
		operator = rec.Column(audit.PartialOperator).(*array.String)
		user     = rec.Column(audit.PartialUserTriggered).(*array.Boolean)
		ua       = rec.Column(audit.PartialUserAgent).(*array.String)
		rule     = rec.Column(audit.PartialRule).(*array.String)
		ignored  = rec.Column(audit.PartialCrawlDelayIgnored).(*array.Boolean)
		size     = rec.Column(audit.PartialBytes).(*array.Int64)
		other    = rec.Column(audit.PartialOtherMethod).(*array.Boolean)
		url      = rec.Column(audit.PartialURL).(*array.Uint64)
		retry    = rec.Column(audit.PartialRetryAfter).(*array.Int32)
		exposed  = rec.Column(audit.PartialPrefExposed).(*array.Boolean)
	)
	keys := map[botKey]*keyRows{}
	fetches := map[availKey][]fetchEvent{}
	for i := range int(rec.NumRows()) {
		if t := int64(ts.Value(i)); *maxTS == nil || t > **maxTS {
			*maxTS = &t
		}
		key := botKey{Bot: bot.Value(i), Host: host.Value(i), Identity: identity.Value(i)}
		k := keys[key]
		if k == nil {
			// The strings of the key outlive the batch.
			key = botKey{Bot: strings.Clone(key.Bot), Host: strings.Clone(key.Host), Identity: key.Identity}
			k = &keyRows{}
			keys[key] = k
		}
		fn := file.Value(i)
		fi, ok := files[fn]
		if !ok {
			fi = fileBase + int64(len(files))
			files[strings.Clone(fn)] = fi
		}
		// Input index, then file within the input: both well under 2^31.
		k.ts = append(k.ts, int64(ts.Value(i)))
		k.order = append(k.order, int64(index)<<31|fi)
		k.line = append(k.line, line.Value(i))
		k.verdict = append(k.verdict, verdict.Value(i))
		k.robotsFetch = append(k.robotsFetch, fetch.Value(i))
		k.visitBreach = append(k.visitBreach, visit.Value(i))
		k.crawlDelay = append(k.crawlDelay, delay.Value(i))
		k.hasDelay = append(k.hasDelay, delay.IsValid(i))
		k.delayIgnored = append(k.delayIgnored, ignored.Value(i))
		k.rateN = append(k.rateN, rateN.Value(i))
		k.rateS = append(k.rateS, rateS.Value(i))
		k.hasRate = append(k.hasRate, rateN.IsValid(i) && rateS.IsValid(i))
		k.clientIP = append(k.clientIP, ip.Value(i))
		k.hasIP = append(k.hasIP, ip.IsValid(i))
		k.operator = append(k.operator, operator.Value(i))
		k.userTriggered = append(k.userTriggered, user.Value(i))
		k.userAgent = append(k.userAgent, ua.Value(i))
		k.hasUA = append(k.hasUA, ua.IsValid(i))
		k.rule = append(k.rule, rule.Value(i))
		k.hasRule = append(k.hasRule, rule.IsValid(i))
		st := int32(-1)
		if status.IsValid(i) {
			st = status.Value(i)
		}
		k.status = append(k.status, st)
		k.bytes = append(k.bytes, size.Value(i)) // 0 when NULL
		k.otherMethod = append(k.otherMethod, other.Value(i))
		k.url = append(k.url, url.Value(i))
		w := int32(-1)
		if retry.IsValid(i) {
			w = retry.Value(i)
		}
		k.waitS = append(k.waitS, w)
		k.prefExposed = append(k.prefExposed, exposed.Value(i))
		if fetch.Value(i) && key.Identity != 2 && !user.Value(i) && measure.StateOf(status.Value(i), status.IsValid(i)) != measure.StateNone {
			ak := availKey{Host: key.Host, Operator: availOperator(key.Bot, operator.Value(i))}
			fetches[ak] = append(fetches[ak], fetchEvent{TS: int64(ts.Value(i)), Order: k.order[len(k.order)-1], Line: line.Value(i),
				Status: status.Value(i), Bot: key.Bot, File: strings.Clone(fn)})
		}
	}
	for ak, ev := range fetches {
		name, err := json.Marshal(ak)
		if err != nil {
			return err
		}
		data, err := json.Marshal(ev)
		if err != nil {
			return err
		}
		emitFetches(string(name), data)
	}
	// Keys in a fixed order, so that a run emits the same elements.
	sorted := make([]botKey, 0, len(keys))
	for key := range keys {
		sorted = append(sorted, key)
	}
	slices.SortFunc(sorted, func(a, b botKey) int {
		return cmp.Or(cmp.Compare(a.Bot, b.Bot), cmp.Compare(a.Host, b.Host), cmp.Compare(a.Identity, b.Identity))
	})
	for _, key := range sorted {
		// Encoding copies the strings of the batch (verdicts, addresses).
		data, err := encodeKeyRows(memory.DefaultAllocator, keys[key])
		if err != nil {
			return err
		}
		name, err := json.Marshal(key)
		if err != nil {
			return err
		}
		emit(string(name), data)
	}
	return nil
}

// availabilityFn finds the periods of one host and operator (step 4 of
// buildPipeline).
type availabilityFn struct{}

// ProcessElement emits the periods of one host and operator, as one JSON
// list, from its responses and the latest request of every part.
func (f *availabilityFn) ProcessElement(key string, batches, partData func(*[]byte) bool, emit func([]byte)) error {
	var k availKey
	if err := json.Unmarshal([]byte(key), &k); err != nil {
		return fmt.Errorf("key %q: %w", key, err)
	}
	var events []fetchEvent
	var data []byte
	for batches(&data) {
		var ev []fetchEvent
		if err := json.Unmarshal(data, &ev); err != nil {
			return fmt.Errorf("robots.txt responses of %q on %q: %w", k.Operator, k.Host, err)
		}
		events = append(events, ev...)
	}
	var maxTS int64
	seen := false
	for partData(&data) {
		var pe partElement
		if err := json.Unmarshal(data, &pe); err != nil {
			return fmt.Errorf("a part: %w", err)
		}
		if pe.MaxTS != nil && (!seen || *pe.MaxTS > maxTS) {
			maxTS, seen = *pe.MaxTS, true
		}
	}
	ps := periodsOf(k, events, maxTS)
	if len(ps) == 0 {
		return nil
	}
	out, err := json.Marshal(ps)
	if err != nil {
		return err
	}
	emit(out)
	return nil
}

// readPeriods returns the periods of a side input of availabilityFn's
// lists.
func readPeriods(lists func(*[]byte) bool) ([]period, error) {
	var all []period
	var data []byte
	for lists(&data) {
		var ps []period
		if err := json.Unmarshal(data, &ps); err != nil {
			return nil, fmt.Errorf("periods: %w", err)
		}
		all = append(all, ps...)
	}
	return all, nil
}

// measureFn makes the summary row of one key (step 5 of buildPipeline).
type measureFn struct {
	Opt options `json:"opt"`
	// Google: --spec google, under which an unreachable robots.txt
	// disallows for 12 hours only.
	Google  bool `json:"google"`
	auditor *audit.PartialAuditor
}

// Setup loads the robots.txt history (for the changes), once per worker
// instance.
func (f *measureFn) Setup() error {
	cfg, err := f.Opt.config()
	if err != nil {
		return err
	}
	f.auditor, err = audit.NewPartialAuditor(cfg)
	return err
}

// ProcessElement measures the requests of one key, after the periods of
// robots.txt's availability changed their verdicts.
func (f *measureFn) ProcessElement(key string, batches, periodLists func(*[]byte) bool, emit, emitCounts, emitChanges func([]byte)) error {
	var k botKey
	if err := json.Unmarshal([]byte(key), &k); err != nil {
		return fmt.Errorf("key %q: %w", key, err)
	}
	var rows keyRows
	var data []byte
	for batches(&data) {
		if err := decodeKeyRows(memory.DefaultAllocator, data, &rows); err != nil {
			return fmt.Errorf("%s on %q: %w", k.Bot, k.Host, err)
		}
	}
	if err := rows.check(); err != nil {
		return fmt.Errorf("%s on %q: %w", k.Bot, k.Host, err)
	}
	periods, err := readPeriods(periodLists)
	if err != nil {
		return err
	}
	counts := applyAvailability(k, &rows, periods, f.Google)
	r, err := measureKey(k, &rows)
	if err != nil {
		return err
	}
	out, err := json.Marshal(r)
	if err != nil {
		return err
	}
	emit(out)
	if len(counts) > 0 {
		if out, err = json.Marshal(counts); err != nil {
			return err
		}
		emitCounts(out)
	}
	changes, err := keyChanges(f.auditor, k, &rows)
	if err != nil {
		return err
	}
	if len(changes) > 0 {
		if out, err = json.Marshal(changes); err != nil {
			return err
		}
		emitChanges(out)
	}
	return nil
}

// summarizeFn combines the parts and the rows into summary.json and
// agents.json (step 6 of buildPipeline).
type summarizeFn struct {
	Opt options `json:"opt"`
	Out output  `json:"out"`
}

// ProcessElement reads every part and row, combines them and writes
// summary.json and agents.json. Warnings go to stderr. An audit that
// audits nothing, or that met input errors without --keep-going, writes
// errorFile in place of both, for the command to report: that is what the
// audit found, not a failure of the pipeline.
func (f *summarizeFn) ProcessElement(ctx context.Context, _ []byte, partData, rowData, periodLists, countData, changeData func(*[]byte) bool) error {
	cfg, err := f.Opt.config()
	if err != nil {
		return err
	}
	a, err := audit.NewPartialAuditor(cfg)
	if err != nil {
		return err
	}
	var parts []partElement
	var data []byte
	for partData(&data) {
		var pe partElement
		if err := json.Unmarshal(data, &pe); err != nil {
			return fmt.Errorf("a part: %w", err)
		}
		parts = append(parts, pe)
	}
	var rows []report.BotRow
	for rowData(&data) {
		var r report.BotRow
		if err := json.Unmarshal(data, &r); err != nil {
			return fmt.Errorf("a bot row: %w", err)
		}
		rows = append(rows, r)
	}
	periods, err := readPeriods(periodLists)
	if err != nil {
		return err
	}
	var counts []periodCount
	for countData(&data) {
		var cs []periodCount
		if err := json.Unmarshal(data, &cs); err != nil {
			return fmt.Errorf("counts of periods: %w", err)
		}
		counts = append(counts, cs...)
	}
	base := a.Base()
	base.RobotsStatus = robotsStatus(periods, counts)
	base.Changes = []report.Change{}
	for changeData(&data) {
		var cs []report.Change
		if err := json.Unmarshal(data, &cs); err != nil {
			return fmt.Errorf("changes: %w", err)
		}
		base.Changes = append(base.Changes, cs...)
	}
	sortChanges(base.Changes)
	c, err := combine(a, base, parts, rows, 0)
	var nothingRead *nothingReadError
	if errors.Is(err, audit.ErrNothingToAudit) || errors.As(err, &nothingRead) {
		return writeError(ctx, f.Out, err.Error())
	}
	if err != nil {
		return err
	}
	for _, w := range c.Warnings {
		fmt.Fprintln(os.Stderr, "crawlaudit-beam: warning:", w)
	}
	if len(c.InputErrors) > 0 && !f.Opt.KeepGoing {
		return writeError(ctx, f.Out, "input errors (summary.json not written; --keep-going writes it): "+c.Summary.Input.Errors[0])
	}
	// agents.json first: summary.json, which the launcher reads back,
	// comes last in object storage (output.writeAll).
	return f.Out.writeAll(ctx, []outFile{
		{agentsFile, func(w io.Writer) error { return report.WriteAgents(w, &c.Summary) }},
		{summaryFile, func(w io.Writer) error { return report.WriteJSON(w, &c.Summary) }},
	})
}

// errorFile is the file of the output directory that says why no
// summary.json was written; the command reads and removes it.
const errorFile = ".crawlaudit-beam.error"

// writeError writes msg into out's errorFile.
func writeError(ctx context.Context, out output, msg string) error {
	return out.write(ctx, errorFile, func(w io.Writer) error {
		_, err := io.WriteString(w, msg)
		return err
	})
}
