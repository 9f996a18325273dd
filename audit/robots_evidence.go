package audit

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/robots/history"
)

// RobotsResponse is one 200 answer to a crawler's GET /robots.txt in the
// logs, with the size the server logged: what the logs themselves say of
// the robots.txt served (see RobotsEvidence). A Partial carries those of
// its logs.
type RobotsResponse struct {
	// Host is the judged host name; Operator the crawler's operator (its
	// bot name when the operator is unknown).
	Host     string    `json:"host"`
	Operator string    `json:"operator"`
	Time     time.Time `json:"time"`
	Bytes    int64     `json:"bytes"`
}

// maxRobotsResponses bounds the /robots.txt answers a judge keeps for the
// evidence of changes (24 bytes each): crawlers fetch robots.txt a few
// times a day each, so a month of a busy site keeps a few thousand, while
// hostile logs could hold millions. A variable for the tests.
var maxRobotsResponses = 1 << 18

// robotsSizes gathers the judge's RobotsResponses, by dict id until
// resolve names them (the judge then drops its dict).
type robotsSizes struct {
	list     []robotsSize
	dropped  int64 // answers past maxRobotsResponses
	resolved []RobotsResponse
	done     bool
}

type robotsSize struct {
	us, bytes      int64
	host, operator int32 // dict ids
}

// add keeps one answer, or counts it as dropped past the bound.
func (s *robotsSizes) add(us, bytes int64, host, operator int32) {
	if len(s.list) >= maxRobotsResponses {
		s.dropped++
		return
	}
	s.list = append(s.list, robotsSize{us: us, bytes: bytes, host: host, operator: operator})
}

// noteRobotsSize keeps row i, a /robots.txt request of the bot of uas on
// hs made at us, when it was a GET answered 200 with a logged size. A
// spoofed request never comes here: its operator did not make it.
func (j *judge) noteRobotsSize(uas *uaState, hs *hostState, us int64, i int, methodCol *array.Dictionary, methodIdx []int32, statusCol *array.Int32, bytesCol *array.Int64) {
	if statusCol.IsNull(i) || statusCol.Value(i) != 200 || bytesCol.IsNull(i) || methodCol.IsNull(i) {
		return
	}
	if methodCol.Dictionary().(*array.String).Value(int(methodIdx[i])) != "GET" {
		return
	}
	op := uas.botID
	if uas.bot.Operator != "" {
		op = j.intern(uas.bot.Operator)
	}
	j.sizes.add(us, bytesCol.Value(i), hs.id, op)
}

// resolve names the kept answers by dict, once, with copies of the names
// (dict's strings share the judge's arena, which is let go of).
func (s *robotsSizes) resolve(dict []string) {
	if s.done {
		return
	}
	s.done = true
	names := map[int32]string{}
	name := func(id int32) string {
		n, ok := names[id]
		if !ok {
			n = strings.Clone(dict[id])
			names[id] = n
		}
		return n
	}
	s.resolved = make([]RobotsResponse, 0, len(s.list))
	for _, r := range s.list {
		s.resolved = append(s.resolved, RobotsResponse{Host: name(r.host), Operator: name(r.operator), Time: time.UnixMicro(r.us).UTC(), Bytes: r.bytes})
	}
	s.list = nil
}

// robotsResponses returns the kept answers with their names.
func (j *judge) robotsResponses() []RobotsResponse {
	j.sizes.resolve(j.dict)
	return j.sizes.resolved
}

// robotsSizesWarning says that answers were left out of the comparison, or
// "" when none was.
func robotsSizesWarning(dropped int64) string {
	if dropped == 0 {
		return ""
	}
	return fmt.Sprintf("the logs hold more than %d answers to crawlers' /robots.txt requests; %d of them were not compared for changes of size the robots.txt history lacks", maxRobotsResponses, dropped)
}

// RobotsEvidence returns the changes of robots.txt that the logs' own
// /robots.txt answers show and the history hist lacks (summary.json's
// robots_evidence), and a warning for each. Per host, in time order:
//
//   - a size s is new at its first answer on the host: before is that
//     answer's time;
//   - it counts only when answers of size s went to the crawlers of at
//     least two operators (anywhere in the logs), so that one crawler's
//     odd answer is not taken for a change;
//   - after is the last answer before it to one of those operators'
//     crawlers, and bytes_before its size: a crawler that got the old
//     file and then the new. With none (the operators first asked after
//     the change), there is no evidence: a first sight is not a change,
//     and a size may differ between crawlers by compression alone;
//   - it is evidence when no version of the history goes live in
//     (after, before], counting a version's uncertain interval
//     ([not_before, instant]) as the change.
func RobotsEvidence(hist *history.History, responses []RobotsResponse) ([]report.RobotsEvidence, []string) {
	byHost := map[string][]RobotsResponse{}
	for _, r := range responses {
		byHost[r.Host] = append(byHost[r.Host], r)
	}
	hosts := make([]string, 0, len(byHost))
	for h := range byHost {
		hosts = append(hosts, h)
	}
	slices.Sort(hosts)
	out := []report.RobotsEvidence{}
	var warnings []string
	for _, h := range hosts {
		rs := byHost[h]
		// Sorted by time, then size and operator, so that the answer is
		// the same whatever order the logs were read in.
		slices.SortFunc(rs, func(a, b RobotsResponse) int {
			return cmp.Or(a.Time.Compare(b.Time), cmp.Compare(a.Bytes, b.Bytes), cmp.Compare(a.Operator, b.Operator))
		})
		operators := map[int64]map[string]bool{}
		for _, r := range rs {
			if operators[r.Bytes] == nil {
				operators[r.Bytes] = map[string]bool{}
			}
			operators[r.Bytes][r.Operator] = true
		}
		// last is, by operator, the index of its latest answer before the
		// instant being walked; answers of one instant are taken together,
		// so that "before" is strict.
		last := map[string]int{}
		seen := map[int64]bool{}
		for i := 0; i < len(rs); {
			j := i
			for j < len(rs) && rs[j].Time.Equal(rs[i].Time) {
				j++
			}
			for _, r := range rs[i:j] {
				if seen[r.Bytes] {
					continue
				}
				seen[r.Bytes] = true
				ops := operators[r.Bytes]
				if len(ops) < 2 {
					continue
				}
				k := -1
				for o := range ops {
					if p, ok := last[o]; ok && p > k {
						k = p
					}
				}
				if k < 0 {
					continue
				}
				after, before := rs[k].Time, r.Time
				if historyChanges(hist, h, after, before) {
					continue
				}
				names := make([]string, 0, len(ops))
				for o := range ops {
					names = append(names, o)
				}
				slices.Sort(names)
				ev := report.RobotsEvidence{Host: h, After: after, Before: before, BytesBefore: rs[k].Bytes, BytesAfter: r.Bytes, Operators: names}
				out = append(out, ev)
				warnings = append(warnings, fmt.Sprintf("the robots.txt of %s changed between %s and %s: the logs show its /robots.txt answers going from %d to %d bytes (seen by the crawlers of %d operators), but the robots.txt history has no version going live then, so requests after it may be judged by a file no longer served; add the version to the history (crawlaudit history fetch --live, or the file from your deploys)",
					hostLabel(h), after.Format(time.RFC3339), before.Format(time.RFC3339), ev.BytesBefore, ev.BytesAfter, len(names)))
			}
			for k := i; k < j; k++ {
				last[rs[k].Operator] = k
			}
			i = j
		}
	}
	return out, warnings
}

// historyChanges reports whether a version of host's history goes live in
// (after, before]: its instant, or its uncertain interval, meets it. A
// history for all time (one file) never changes.
func historyChanges(hist *history.History, host string, after, before time.Time) bool {
	hi, ok := hist.Lookup(host)
	if !ok {
		return false
	}
	first, end := hist.VersionIDs(hi)
	all := hist.All()
	// The first version going live after "after": a later one cannot
	// meet the interval when this one does not, since a version's
	// uncertain interval begins no sooner than the version before it went
	// live (uncertainSince).
	id := first + sort.Search(end-first, func(k int) bool { return all[first+k].Start.After(after) })
	if id == end || all[id].Start.IsZero() {
		return false
	}
	lo := all[id].Start
	if id > first {
		if t, ok := uncertainSince(all[id-1], all[id]); ok {
			lo = t
		}
	}
	return !lo.After(before)
}

// hostLabel names a host in a message; "" is the logs' lines without one.
func hostLabel(h string) string {
	if h == "" {
		return "the lines without a host"
	}
	return h
}
