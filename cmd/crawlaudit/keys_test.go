package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKeysUpdate: `keys update` fetches a signer's directory from a server
// on 127.0.0.1, stores it dated, a second run keeps it, `keys show --keys`
// lists it, and a page that is not a JWKS is refused with exit 2.
func TestKeysUpdate(t *testing.T) {
	// RFC 9421 Appendix B.1.4's Ed25519 test key, as a directory.
	dirBody := `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs","use":"sig"}]}`
	body := dirBody
	var hits int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		if r.URL.Path != "/.well-known/http-message-signatures-directory" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/http-message-signatures-directory+json")
		w.Write([]byte(body))
	}))
	defer srv.Close()
	dir := t.TempDir()
	code, out, stderr := runCLI(t, "", "keys", "update", "--dir", dir, "--signers", "chatgpt.com", "--base-url", srv.URL)
	if code != exitOK || !strings.Contains(out, "chatgpt.com") || !strings.Contains(out, "1 keys") {
		t.Fatalf("exit %d: %s%s", code, out, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "chatgpt.com", "*.json"))
	if len(files) != 1 {
		t.Fatalf("files %v", files)
	}
	if b, _ := os.ReadFile(files[0]); string(b) != dirBody {
		t.Errorf("stored %q, want the directory as served", b)
	}
	code, out, _ = runCLI(t, "", "keys", "update", "--dir", dir, "--signers", "chatgpt.com", "--base-url", srv.URL)
	if code != exitOK || !strings.Contains(out, "unchanged") || hits != 2 {
		t.Errorf("second run: exit %d, %d requests, %s", code, hits, out)
	}
	code, out, _ = runCLI(t, "", "keys", "show", "--keys", dir)
	if code != exitOK || !strings.Contains(out, "chatgpt.com\tChatGPT agent, OpenAI") || !strings.Contains(out, files[0]) {
		t.Errorf("keys show: exit %d:\n%s", code, out)
	}
	// The built-in snapshot alone names its source.
	code, out, _ = runCLI(t, "", "keys", "show")
	if code != exitOK || !strings.Contains(out, "2025-01-01T00:00:00Z\t1 keys\thttps://chatgpt.com/.well-known/http-message-signatures-directory") {
		t.Errorf("keys show (built-in): exit %d:\n%s", code, out)
	}
	body = "<html>Service unavailable</html>"
	code, _, stderr = runCLI(t, "", "keys", "update", "--dir", dir, "--signers", "chatgpt.com", "--base-url", srv.URL)
	if code != exitUsage || !strings.Contains(stderr, "refused") || !strings.Contains(stderr, "not a JWKS") {
		t.Errorf("not a JWKS: exit %d, stderr %s", code, stderr)
	}
	if files2, _ := filepath.Glob(filepath.Join(dir, "chatgpt.com", "*.json")); len(files2) != 1 {
		t.Errorf("a refused directory was stored: %v", files2)
	}
}
