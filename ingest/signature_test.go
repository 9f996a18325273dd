package ingest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestSignatureColumns: the scheme and the three headers of a signed request
// land in their columns whole, null where the line has "-", in batches where
// they appear on no row, mid-batch and on the last row; Skip leaves them null.
func TestSignatureColumns(t *testing.T) {
	const input = `sig1=("@authority");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";tag="web-bot-auth"`
	signed := map[int]bool{5: true, 7: true, 8: true}
	var log strings.Builder
	for i := range 10 {
		agent, in, sig, scheme := "-", "-", "-", "http"
		if signed[i] {
			agent, in, sig, scheme = `sig1=\x22https://chatgpt.com\x22`, strings.ReplaceAll(input, `"`, `\x22`), fmt.Sprintf("sig1=:AAAA%d:", i), "https"
		}
		fmt.Fprintf(&log, "192.0.2.%d [01/Oct/2026:00:00:%02d +0000] \"GET /p/%d HTTP/1.1\" 200 %s \"%s\" \"%s\" \"%s\"\n", i+1, i, i, scheme, agent, in, sig)
	}
	const layout = `$remote_addr [$time_local] "$request" $status $scheme "$http_signature_agent" "$http_signature_input" "$http_signature"`
	for _, skip := range []bool{false, true} {
		t.Run(fmt.Sprint("skip=", skip), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			opts := Options{Stdin: strings.NewReader(log.String()), LogFormat: layout, BatchRows: 4, Workers: 1, Allocator: mem}
			if skip {
				opts.Skip = []int{ColScheme, ColSignatureAgent, ColSignatureInput, ColSignature}
			}
			var got [][4]string
			_, err := Run(context.Background(), []string{"-"}, opts, func(rec arrow.RecordBatch) error {
				for i := range int(rec.NumRows()) {
					var r [4]string
					for k, c := range []int{ColScheme, ColSignatureAgent, ColSignatureInput, ColSignature} {
						if rec.Column(c).Len() != int(rec.NumRows()) {
							t.Fatalf("column %d has %d rows of %d", c, rec.Column(c).Len(), rec.NumRows())
						}
						r[k] = strAt(rec.Column(c), i)
					}
					got = append(got, r)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 10 {
				t.Fatalf("%d rows, want 10", len(got))
			}
			for i, r := range got {
				want := [4]string{"http", "<nil>", "<nil>", "<nil>"}
				if signed[i] {
					want = [4]string{"https", `sig1="https://chatgpt.com"`, input, fmt.Sprintf("sig1=:AAAA%d:", i)}
				}
				if skip {
					want = [4]string{"<nil>", "<nil>", "<nil>", "<nil>"}
				}
				if r != want {
					t.Errorf("line %d: %q, want %q", i+1, r, want)
				}
			}
		})
	}
}
