package report

import "testing"

// TestSetSigns: conduct.signs says whether a crawler signs only where the
// log can show it. The rule is the conduct page's (docs/conduct.md,
// "conduct.signs"): true for a row with a valid Web Bot Auth signature
// (draft-ietf-webbotauth-httpsig-protocol-01), false for one without when
// some request of the log carried the headers whatever their outcome, left
// out when none did.
func TestSetSigns(t *testing.T) {
	yes, no := true, false
	sigs := []SignatureRow{{Signer: "https://chatgpt.com", Key: "k", Status: "invalid", Requests: 1, Bots: []string{}}}
	for _, c := range []struct {
		name   string
		sigs   []SignatureRow
		signed int64
		want   *bool
	}{
		{"no signature header in the log", nil, 0, nil},
		{"the log records signatures, the row signed", sigs, 3, &yes},
		{"the log records signatures, the row did not sign", sigs, 0, &no},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &Summary{Signatures: c.sigs, Bots: []BotRow{{Bot: "B", Signed: c.signed, Conduct: Conduct{Signs: &yes}}}}
			s.SetSigns()
			got := s.Bots[0].Conduct.Signs
			if (got == nil) != (c.want == nil) || (got != nil && *got != *c.want) {
				t.Errorf("signs %s, want %s", YesNoUnknown(got), YesNoUnknown(c.want))
			}
		})
	}
}

// TestFoldSigns: a row that sums several bots signs if any of them does,
// and stays left out when none of them says.
func TestFoldSigns(t *testing.T) {
	yes, no := true, false
	for _, c := range []struct {
		name string
		rows []*bool
		want *bool
	}{
		{"none says", []*bool{nil, nil}, nil},
		{"one of two signs", []*bool{&no, &yes}, &yes},
		{"the first signs", []*bool{&yes, &no}, &yes},
		{"none signs", []*bool{&no, &no}, &no},
	} {
		var sum Conduct
		for _, s := range c.rows {
			sum.Fold(&Conduct{Signs: s})
		}
		if (sum.Signs == nil) != (c.want == nil) || (sum.Signs != nil && *sum.Signs != *c.want) {
			t.Errorf("%s: signs %s, want %s", c.name, YesNoUnknown(sum.Signs), YesNoUnknown(c.want))
		}
	}
}
