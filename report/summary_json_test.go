package report

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// TestWriteJSONEqualsEncoder: the row-at-a-time writer gives json.Encoder's
// bytes, with no rows, one, several, and strings that JSON escapes.
func TestWriteJSONEqualsEncoder(t *testing.T) {
	at := time.Date(2026, 10, 1, 2, 3, 4, 0, time.UTC)
	row := func(bot string, n int64) BotRow {
		r := BotRow{Bot: bot, Host: "www.example.com", Identity: IdentityVerified, Operator: "Op <&>", Requests: n,
			Disallowed: n / 2, FirstSeen: at, LastSeen: at.Add(time.Hour)}
		r.Judge()
		return r
	}
	for _, tc := range []struct {
		name string
		bots []BotRow
	}{
		{"nil", nil},
		{"none", []BotRow{}},
		{"one", []BotRow{row("Googlebot", 3)}},
		{"several", []BotRow{row("Bytespider", 10), row("<script>\"bots\": []\u2028", 4), row("ünïcode", 1)}},
	} {
		s := &Summary{Bots: tc.bots}
		s.Input.Lines = 42
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := WriteJSON(&got, s); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got.String(), want.String())
		}
	}
}
