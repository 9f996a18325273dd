package firewall

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

func init() {
	register(Format{Name: "crowdsec", Files: []File{{Name: "blocklist.crowdsec.json", Write: WriteCrowdSec}}})
}

// crowdSecDecision is one decision as cscli decisions import reads it from
// JSON: the fields of its decisionRaw.
type crowdSecDecision struct {
	Duration string `json:"duration,omitempty"`
	Reason   string `json:"reason"`
	Scope    string `json:"scope"`
	Type     string `json:"type"`
	Value    string `json:"value"`
}

// WriteCrowdSec writes blocklist.crowdsec.json, a decisions list for
// "cscli decisions import -i blocklist.crowdsec.json": a JSON array with
// one object per block, IPv4 first,
//
//	[
//	  {"duration": "720h", "reason": "crawlaudit: disallowed 64, spoofed 64: Googlebot spoofed",
//	   "scope": "Ip", "type": "ban", "value": "192.0.2.10"},
//	  {"duration": "720h", "reason": "crawlaudit: 4 addresses: ...", "scope": "Range", "type": "ban", "value": "198.51.100.4/30"}
//	]
//
// as https://docs.crowdsec.net/docs/cscli/cscli_decisions_import/ documents
// it: the fields are duration, reason, scope, type and value; cscli reads
// the format from the ".json" extension. The scope is "Ip" for a single
// address (written alone) and "Range" for a CIDR, as CrowdSec spells them
// (types.Ip, types.Range); the type is "ban"; the reason is
// "crawlaudit: " and the block's Reason (sanitized, Sanitize). The duration
// is Meta.TTL (--block-ttl) as a Go duration ("720h", "1h30m"), which the
// Local API parses with time.ParseDuration; without a TTL the field is left
// out and cscli uses its --duration flag (4h unless given), since a
// CrowdSec decision always expires.
//
// No "origin": cscli decisions import does not read one and sets every
// imported decision's origin to "cscli-import" (cmd/crowdsec-cli/clidecision/import.go in
// https://github.com/crowdsecurity/crowdsec), and its --duration,
// --reason, --scope and --type flags only fill fields a decision lacks.
// JSON has no comments, so the header of the list (Meta) goes nowhere in
// this format. Large lists import faster in batches (--batch 1000).
func WriteCrowdSec(w io.Writer, l *List) error {
	dur := ""
	if l.Meta.TTL > 0 {
		dur = crowdSecDuration(l.Meta.TTL)
	}
	// The array is written a decision at a time, as json.MarshalIndent of
	// the whole array writes it ("[]" when empty): the whole array of
	// millions of decisions took several times the list's memory.
	bw := bufio.NewWriter(w)
	if len(l.Blocks) == 0 {
		bw.WriteString("[]\n")
	}
	for i, b := range l.Blocks {
		scope := "Range"
		if b.Single() {
			scope = "Ip"
		}
		out, err := json.MarshalIndent(crowdSecDecision{
			Duration: dur,
			Reason:   "crawlaudit: " + b.Reason(),
			Scope:    scope,
			Type:     "ban",
			Value:    b.String(),
		}, "  ", "  ")
		if err != nil {
			return fmt.Errorf("cannot write crowdsec block list: %w", err)
		}
		if i == 0 {
			bw.WriteString("[\n  ")
		} else {
			bw.WriteString(",\n  ")
		}
		bw.Write(out)
	}
	if len(l.Blocks) > 0 {
		bw.WriteString("\n]\n")
	}
	return flush(bw, "crowdsec")
}

// crowdSecDuration writes d as time.Duration.String does, without its
// trailing zero units: "720h", "1h30m", "45s".
func crowdSecDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
