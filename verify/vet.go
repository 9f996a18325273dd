package verify

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"
)

// A list is checked before it is trusted: one stored empty Google list
// made every real Googlebot request spoofed, and a list holding 0.0.0.0/0
// verified an impostor. The rules, and why each threshold, are in
// docs/verification-data.md.

// ErrRefused is wrapped by the error of a list refused as implausible (see
// [RefusedError]).
var ErrRefused = errors.New("refused as implausible")

// RefusedError is a list that parsed but is not trusted: empty, holding a
// default route or a prefix too broad for one operator, made of
// special-purpose addresses, dropping most of its predecessor's prefixes,
// or dated before 2000 or in the future.
type RefusedError struct {
	File    string    // the file or URL of the list
	Created time.Time // its creation time
	Reasons []string  // why, each for a person
}

// Error returns "file: refused as implausible: reason; reason".
func (e *RefusedError) Error() string {
	return e.File + ": " + ErrRefused.Error() + ": " + strings.Join(e.Reasons, "; ")
}

// Unwrap returns ErrRefused.
func (e *RefusedError) Unwrap() error { return ErrRefused }

// ListNote is a list of a --ranges directory that was refused, or whose
// special-purpose entries were dropped, with the reasons.
type ListNote struct {
	File    string    `json:"file"`
	Created time.Time `json:"created"`
	Reasons []string  `json:"reasons"`

	createdUS int64
}

// Thresholds of the checks.
const (
	// earliestYear: no crawler operator published a range list before
	// 2000; an older creation time is a zero or a mistaken date.
	earliestYear = 2000
	// clockSkew is how far in the future a creation time may lie (clocks
	// and time zones of the machines that wrote and read the file).
	clockSkew = 48 * time.Hour
	// minShrinkBase: a predecessor with fewer prefixes is not compared, as
	// an operator with one or two prefixes may well replace them all.
	minShrinkBase = 4
	// minV4Bits and minV6Bits: a shorter prefix is more address space than
	// any one operator holds (the broadest in the operators' histories
	// are IPv4 /16 and IPv6 /29).
	minV4Bits, minV6Bits = 8, 16
)

// specialRange is an entry of special.json.
type specialRange struct {
	Prefix netip.Prefix `json:"prefix"`
	Name   string       `json:"name"`
	RFC    string       `json:"rfc"`
}

func (s specialRange) String() string { return s.Name + " (" + s.Prefix.String() + ", " + s.RFC + ")" }

//go:embed special.json
var specialJSON []byte

// specialRanges returns the ranges of special.json.
var specialRanges = sync.OnceValue(func() []specialRange {
	var f struct {
		Ranges []specialRange `json:"ranges"`
	}
	if err := json.Unmarshal(specialJSON, &f); err != nil {
		panic("verify: special.json: " + err.Error()) // a build defect, tested
	}
	return f.Ranges
})

// special returns the most specific special-purpose range that holds all
// of p (inside), or else one that p holds a part of (overlaps), or
// neither.
func special(p netip.Prefix) (inside, overlaps *specialRange) {
	rs := specialRanges()
	for i := range rs {
		s := &rs[i]
		if !s.Prefix.Overlaps(p) {
			continue
		}
		if s.Prefix.Bits() <= p.Bits() {
			if inside == nil || s.Prefix.Bits() > inside.Prefix.Bits() {
				inside = s
			}
		} else if overlaps == nil {
			overlaps = s
		}
	}
	return inside, overlaps
}

// vetted is what vetList makes of a list.
type vetted struct {
	list    *List    // the list to use (without dropped entries); nil when refused
	refused []string // why the list is refused
	dropped []string // the entries dropped, each with why
}

// vetList checks list l of a source before it is trusted. prev is the
// source's newest accepted list before it (nil: none), now the current
// time, written the time the file was written (zero: unknown). The rules:
//
//   - Refused: no prefix; a default route or a prefix broader than IPv4
//     /8 or IPv6 /16; a prefix that spans a special-purpose range; as many
//     special-purpose entries as others or more; a creation time before
//     2000, or later than now or the file's time by more than two days; a
//     list that covers fewer than half of the prefixes of prev (when prev
//     has at least four).
//   - Dropped with a note: special-purpose entries that are a minority of
//     the list (no crawler's address is in them, so dropping one cannot
//     turn a real crawler into an impostor, and the rest of the list
//     still verifies).
func vetList(l, prev *List, now, written time.Time) vetted {
	var v vetted
	if l.Created.Year() < earliestYear {
		v.refused = append(v.refused, fmt.Sprintf("its creation time %s is before %d, earlier than any published crawler range list", stamp(l.Created), earliestYear))
	}
	if !now.IsZero() && l.Created.After(now.Add(clockSkew)) {
		v.refused = append(v.refused, fmt.Sprintf("its creation time %s is in the future (it is now %s)", stamp(l.Created), stamp(now)))
	} else if !written.IsZero() && l.Created.After(written.Add(clockSkew)) {
		v.refused = append(v.refused, fmt.Sprintf("its creation time %s is after the file was written (%s)", stamp(l.Created), stamp(written)))
	}
	ps := l.Prefixes()
	if len(ps) == 0 {
		v.refused = append(v.refused, "it holds no prefix (an operator's list is never empty: a failed or cut download looks like this)")
		return v
	}
	kept := make([]netip.Prefix, 0, len(ps))
	var specials []string
	for _, p := range ps {
		min := minV4Bits
		if p.Addr().Is6() {
			min = minV6Bits
		}
		switch inside, overlaps := special(p); {
		case p.Bits() == 0:
			v.refused = append(v.refused, fmt.Sprintf("it holds %s, the default route: every address would be verified", p))
		case p.Bits() < min:
			v.refused = append(v.refused, fmt.Sprintf("it holds %s, more address space than any one operator holds (the broadest allowed is /%d)", p, min))
		case inside != nil:
			specials = append(specials, fmt.Sprintf("%s is %s", p, inside))
		case overlaps != nil:
			v.refused = append(v.refused, fmt.Sprintf("it holds %s, which spans the %s", p, overlaps))
		default:
			kept = append(kept, p)
		}
	}
	if len(specials) > 0 {
		if 2*len(specials) >= len(ps) {
			v.refused = append(v.refused, fmt.Sprintf("%d of its %d prefixes are special-purpose addresses that no crawler uses (%s)",
				len(specials), len(ps), firstFew(specials)))
		} else {
			for _, s := range specials {
				v.dropped = append(v.dropped, s+": dropped, no crawler uses it")
			}
		}
	}
	if prev != nil && prev.Len() >= minShrinkBase {
		n := prev.Len()
		if k := covered(prev, l); 2*k < n {
			v.refused = append(v.refused, fmt.Sprintf("it keeps %d of the %d prefixes of the list of %s (less than half: a cut or wrong download looks like this; if the operator really replaced its addresses, move the older lists of this source away)",
				k, n, stamp(prev.Created)))
		}
	}
	if len(v.refused) > 0 {
		v.dropped = nil
		return v
	}
	v.list = l
	if len(kept) < len(ps) {
		v.list = NewList(l.Created, kept)
	}
	return v
}

// covered counts the prefixes of prev that l covers whole.
func covered(prev, l *List) int {
	n := 0
	for _, p := range prev.Prefixes() {
		if q, ok := l.Lookup(p.Addr()); ok && q.Bits() <= p.Bits() {
			n++
		}
	}
	return n
}

// firstFew joins the first three of ss, and says how many more there are.
func firstFew(ss []string) string {
	if len(ss) <= 3 {
		return strings.Join(ss, "; ")
	}
	return strings.Join(ss[:3], "; ") + fmt.Sprintf("; and %d more", len(ss)-3)
}

// setVetted checks the lists of s in order of creation time, each against
// the newest accepted one before it, and makes those accepted (without
// their dropped entries) its versions (see setVersions); the refused ones
// and those with dropped entries are noted in s. what names the file of a
// list, written says when it was written (zero: unknown).
func (s *Source) setVetted(lists []*List, what func(*List) string, written func(*List) time.Time, now time.Time) error {
	sorted := slices.Clone(lists)
	slices.SortStableFunc(sorted, func(a, b *List) int { return a.Created.Compare(b.Created) })
	files := make(map[*List]string, len(lists))
	var accepted []*List
	var prev *List
	for _, l := range sorted {
		v := vetList(l, prev, now, written(l))
		note := ListNote{File: what(l), Created: l.Created, createdUS: l.createdUS}
		if v.list == nil {
			note.Reasons = v.refused
			s.Refused = append(s.Refused, note)
			continue
		}
		if len(v.dropped) > 0 {
			note.Reasons = v.dropped
			s.Dropped = append(s.Dropped, note)
		}
		files[v.list] = what(l)
		accepted = append(accepted, v.list)
		prev = v.list
	}
	if len(accepted) == 0 {
		return nil
	}
	return s.setVersions(accepted, func(l *List) string { return files[l] })
}

// deltaVet applies the checks of vetList to the versions of the built-in
// snapshot as they are decoded from their deltas, without building a
// list: a prefix that is a default route, too broad or special-purpose
// refuses every version that holds it (the snapshot is the operators'
// data, in which there is none to drop), and the shrink rule counts the
// prefixes of the last accepted version still held exactly.
type deltaVet struct {
	bad     map[netip.Prefix]string // the offending prefixes held, with why
	prevLen int                     // prefixes of the last accepted version; 0: none
	prevAt  time.Time               // its creation time
	prevSet map[netip.Prefix]bool   // its prefixes, when a refused version came after it; nil: the version before
	kept    int                     // prefixes of the version before still held
	adds    []netip.Prefix          // the delta of the version being decoded
	removes []netip.Prefix
}

// begin starts a version; set holds the prefixes of the version before.
func (d *deltaVet) begin(set map[netip.Prefix]bool) {
	if d.bad == nil {
		d.bad = make(map[netip.Prefix]string)
	}
	d.kept = len(set)
	d.adds, d.removes = d.adds[:0], d.removes[:0]
}

func (d *deltaVet) removed(p netip.Prefix) {
	d.kept--
	d.removes = append(d.removes, p)
	delete(d.bad, p)
}

func (d *deltaVet) added(p netip.Prefix) {
	d.adds = append(d.adds, p)
	min := minV4Bits
	if p.Addr().Is6() {
		min = minV6Bits
	}
	inside, overlaps := special(p)
	switch {
	case p.Bits() == 0:
		d.bad[p] = fmt.Sprintf("it holds %s, the default route", p)
	case p.Bits() < min:
		d.bad[p] = fmt.Sprintf("it holds %s, more address space than any one operator holds", p)
	case inside != nil:
		d.bad[p] = fmt.Sprintf("it holds %s, which is %s", p, inside)
	case overlaps != nil:
		d.bad[p] = fmt.Sprintf("it holds %s, which spans the %s", p, overlaps)
	}
}

// end checks the version of set created at created, and returns why it is
// refused (nil: accepted).
func (d *deltaVet) end(set map[netip.Prefix]bool, created time.Time) []string {
	var reasons []string
	if created.Year() < earliestYear {
		reasons = append(reasons, fmt.Sprintf("its creation time %s is before %d", stamp(created), earliestYear))
	}
	if len(set) == 0 {
		reasons = append(reasons, "it holds no prefix")
	}
	for _, why := range d.bad {
		reasons = append(reasons, why)
	}
	slices.Sort(reasons)
	if d.prevLen >= minShrinkBase {
		kept := d.kept
		if d.prevSet != nil {
			kept = 0
			for p := range d.prevSet {
				if set[p] {
					kept++
				}
			}
		}
		if 2*kept < d.prevLen {
			reasons = append(reasons, fmt.Sprintf("it keeps %d of the %d prefixes of the list of %s (less than half)", kept, d.prevLen, stamp(d.prevAt)))
		}
	}
	if len(reasons) > 0 {
		if d.prevSet == nil && d.prevLen > 0 {
			// Keep the accepted version's prefixes, the version before
			// this delta, as set moves on.
			d.prevSet = make(map[netip.Prefix]bool, d.prevLen)
			for p := range set {
				d.prevSet[p] = true
			}
			for _, p := range d.adds {
				delete(d.prevSet, p)
			}
			for _, p := range d.removes {
				d.prevSet[p] = true
			}
		}
		return reasons
	}
	d.prevLen, d.prevAt, d.prevSet = len(set), created, nil
	return nil
}
