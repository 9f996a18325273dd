package main

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/crawlaudit/crawlaudit/report"
)

// hostileLines are log lines whose User-Agents and paths attack an HTML
// page: each must show in report.html as text, never as markup or script.
var hostileLines = []string{
	`203.0.113.7 - - [12/Oct/2026:10:00:00 +0200] "GET /private/a HTTP/1.1" 200 100 "-" "<script>alert(1)</script> EvilBot/1.0"`,
	`203.0.113.8 - - [12/Oct/2026:10:00:01 +0200] "GET /private/b HTTP/1.1" 200 100 "-" "\"><img src=x onerror=alert(1)> XssBot/2.0"`,
	`203.0.113.9 - - [12/Oct/2026:10:00:02 +0200] "GET /private/c HTTP/1.1" 200 100 "-" "</script><b>bold</b> ScriptBot/1.0 (+http://x.test/bot)"`,
	`203.0.113.7 - - [12/Oct/2026:10:00:04 +0200] "GET /search?q=javascript:alert(document.cookie)//</script><script>alert(2)</script> HTTP/1.1" 200 100 "-" "<script>alert(1)</script> EvilBot/1.0"`,
	`203.0.113.10 - - [12/Oct/2026:10:00:05 +0200] "GET javascript:alert(1) HTTP/1.1" 200 100 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`,
	`203.0.113.12 - - [12/Oct/2026:10:00:06 +0200] "GET /private/e|x HTTP/1.1" 200 100 "-" "curl/8.0 ` + "`pipe|bot`" + ` [link](javascript:alert(1))"`,
}

// hostileTexts must appear in the page's text exactly.
var hostileTexts = []string{
	"<script>alert(1)</script> EvilBot/1.0",
	`"><img src=x onerror=alert(1)> XssBot/2.0`,
	"</script><b>bold</b> ScriptBot/1.0 (+http://x.test/bot)",
	"/search?q=javascript:alert(document.cookie)//</script><script>alert(2)</script>",
}

// chromiumPath returns the Chromium or Chrome binary, or skips the test
// (fails it under CRAWLAUDIT_REQUIRE_TOOLS=1, as .ci/run sets).
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "no Chromium to open report.html in (apt-get install chromium)"
	if os.Getenv("CRAWLAUDIT_REQUIRE_TOOLS") != "" {
		t.Fatalf("%s (CRAWLAUDIT_REQUIRE_TOOLS is set)", msg)
	}
	t.Skip(msg)
	return ""
}

// sampleWithHostile writes the sample month with hostileLines added.
func sampleWithHostile(t *testing.T) string {
	t.Helper()
	f, err := os.Open(sampleLog)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, []byte(strings.Join(hostileLines, "\n")+"\n")...)
	p := filepath.Join(t.TempDir(), "access-2026-10-hostile.log")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReportInBrowser opens report.html of the sample month (with hostile
// User-Agents and paths added) in headless Chromium: no console error, no
// network request, every section present and not empty, the bots table
// holds the audit's rows, the hostile strings show as text; and the same
// without JavaScript. It saves a full-page screenshot in a temporary
// directory (or $CRAWLAUDIT_SCREENSHOT_DIR) and logs its path.
func TestReportInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("opens a browser")
	}
	chrome := chromiumPath(t)
	logFile := sampleWithHostile(t)
	out := t.TempDir()
	code, _, stderr := runCLI(t, "", "audit", "--robots", sampleRobots, "--host", "www.example.com", "--out", out, logFile)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var sum report.Summary
	data, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &sum); err != nil {
		t.Fatal(err)
	}
	html := filepath.Join(out, "report.html")
	fi, err := os.Stat(html)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > 1<<20 {
		t.Errorf("report.html is %d bytes, over 1 MB", fi.Size())
	}
	shotDir := os.Getenv("CRAWLAUDIT_SCREENSHOT_DIR")
	if shotDir == "" {
		if shotDir, err = os.MkdirTemp("", "crawlaudit-report-shot-"); err != nil {
			t.Fatal(err)
		}
	}

	for _, js := range []bool{true, false} {
		t.Run(fmt.Sprintf("javascript=%v", js), func(t *testing.T) {
			checkPage(t, chrome, html, &sum, js, shotDir)
		})
	}
	t.Run("fits", func(t *testing.T) { checkFits(t, chrome, html, shotDir) })
}

// overflowJS lists what sticks out sideways, with every <details> open:
// the page scrolling sideways, a table wider than its container or
// scrolling inside it, a cell ending past the viewport.
const overflowJS = `(() => {
	for (const d of document.querySelectorAll("details")) d.open = true;
	const p = [];
	const se = document.scrollingElement, vw = document.documentElement.clientWidth;
	if (se.scrollWidth > se.clientWidth) p.push("the page scrolls sideways: " + se.scrollWidth + " px in " + se.clientWidth);
	document.querySelectorAll("table").forEach((t, i) => {
		const name = "#" + ((t.closest("section") || {}).id || "?") + " table " + i;
		const box = t.parentElement;
		if (t.getBoundingClientRect().width > box.clientWidth + 0.5 || box.scrollWidth > box.clientWidth)
			p.push(name + ": " + Math.round(t.getBoundingClientRect().width) + " px wide in " + box.clientWidth);
		for (const c of t.querySelectorAll("th, td")) {
			const r = c.getBoundingClientRect();
			if (r.right > vw + 0.5) { p.push(name + ": cell " + JSON.stringify(c.textContent.trim().slice(0, 30)) + " ends at " + Math.round(r.right) + " px of " + vw); break; }
		}
	});
	return p;
})()`

// printWidth is the width in CSS pixels of A4 landscape (297 mm) less the
// page's 10 mm margins, which style.css asks for in print.
const printWidth = 1047

// checkFits opens report.html at a laptop's width (1280 px), at the page's
// widest (1400 px) and on a wide screen (1920 px), and in print: every
// column of every table must be visible without scrolling sideways. It
// saves a screenshot at 1280 px and the printed pages (PDF, and PNG when
// pdftoppm is installed).
func checkFits(t *testing.T, chrome, html, shotDir string) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chrome), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.WindowSize(1280, 900), chromedp.UserDataDir(t.TempDir()))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, 120*time.Second)
	defer cancelTimeout()
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+html), chromedp.WaitReady(chromedp.ID("method"))); err != nil {
		t.Fatal(err)
	}
	measure := func(what string) {
		t.Helper()
		raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](overflowJS))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		var problems []string
		if err := json.Unmarshal(raw, &problems); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		for _, p := range problems {
			t.Errorf("%s: %s", what, p)
		}
	}
	for _, width := range []int64{1280, 1400, 1920} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900), chromedp.Sleep(200*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		if width == 1280 {
			// One picture per section, at a laptop's width.
			for _, s := range report.Sections {
				shot, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.ID(s.ID)))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(shotDir, "at1280-"+s.ID+".png"), shot, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Logf("screenshots at 1280 px: %s", filepath.Join(shotDir, "at1280-*.png"))
		}
		measure(fmt.Sprintf("at %d px", width))
	}
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(printWidth, 800), chromedp.Sleep(200*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	measure("in print")
	prefer, background := true, true
	pdf, err := chromedp.Call(ctx, page.PrintToPDF, page.PrintToPDFParams{PreferCSSPageSize: &prefer, PrintBackground: &background})
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(shotDir, "report-print.pdf")
	if err := os.WriteFile(name, pdf.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("printed: %s", name)
	if tool, err := exec.LookPath("pdftoppm"); err == nil {
		if out, err := exec.Command(tool, "-png", "-r", "60", name, filepath.Join(shotDir, "report-print")).CombinedOutput(); err != nil {
			t.Errorf("pdftoppm: %v: %s", err, out)
		}
	}
}

func checkPage(t *testing.T, chrome, html string, sum *report.Summary, js bool, shotDir string) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chrome),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.WindowSize(1400, 1000),
		chromedp.UserDataDir(t.TempDir()),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()

	url := "file://" + html
	var mu sync.Mutex
	var problems []string
	dialogs := make(chan string, 16)
	note := func(format string, args ...any) {
		mu.Lock()
		problems = append(problems, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	// The listener sees every event of the tab from its start, in order.
	listen := func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			switch e.Type {
			case runtime.ConsoleAPICalledTypeError, runtime.ConsoleAPICalledTypeWarning, runtime.ConsoleAPICalledTypeAssert:
				var args []string
				for _, a := range e.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				note("console.%s: %s", e.Type, strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			note("exception: %s", e.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			// CSP violations and blocked loads are reported here.
			if e.Entry.Level == log.EntryLevelError || e.Entry.Level == log.EntryLevelWarning {
				note("log %s (%s): %s %s", e.Entry.Level, e.Entry.Source, e.Entry.Text, e.Entry.URL)
			}
		case *network.EventRequestWillBeSent:
			if e.Request.URL != url {
				note("network request: %s", e.Request.URL)
			}
		case *page.EventJavascriptDialogOpening:
			note("a dialog opened: %q", e.Message)
			dialogs <- e.Message
		}
	}
	ctx, cancel := chromedp.NewContext(actx, chromedp.WithListener(listen))
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	defer cancelTimeout()
	go func() {
		for {
			select {
			case <-dialogs:
				chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
			case <-ctx.Done():
				return
			}
		}
	}()

	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, log.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: !js}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitReady(chromedp.ID("method")), chromedp.Sleep(300*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	eval := func(expr string, v any) {
		t.Helper()
		raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		if err := json.Unmarshal(raw, v); err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
	}
	var ids map[string]int
	var rows []string
	var text, all string
	var images, scripts, handlers, links int
	eval(`(() => {
		const r = {};
		for (const s of document.querySelectorAll("main > section")) {
			// the length of the section's text besides its heading
			const h = s.querySelector("h2");
			r[s.id] = s.innerText.length - (h ? h.innerText.length : 0);
		}
		return r;
	})()`, &ids)
	eval(`Array.from(document.querySelectorAll("#bots-table tbody tr")).map(e => [e.dataset.bot, e.dataset.host, e.dataset.identity].join(" "))`, &rows)
	eval(`document.body.innerText`, &text)
	// The User-Agents are inside closed <details>: innerText skips them.
	eval(`document.body.textContent`, &all)
	eval(`document.querySelectorAll("img, image, iframe, object, embed, link, base, form, audio, video, source, use").length`, &images)
	eval(`document.scripts.length`, &scripts)
	eval(`Array.from(document.querySelectorAll("*")).filter(e => Array.from(e.attributes).some(a => a.name.toLowerCase().startsWith("on"))).length`, &handlers)
	eval(`Array.from(document.querySelectorAll("[href],[src],[action],[formaction],[srcset],[poster]")).filter(e => !(e.getAttribute("href") || "").startsWith("#")).length`, &links)
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}

	mu.Lock()
	for _, p := range problems {
		t.Error(p)
	}
	mu.Unlock()
	for _, s := range report.Sections {
		n, ok := ids[s.ID]
		if !ok {
			t.Errorf("no section #%s", s.ID)
		} else if n < 20 {
			t.Errorf("section #%s is empty", s.ID)
		}
	}
	if len(ids) != len(report.Sections) {
		t.Errorf("sections %v, want the %d of report.Sections", ids, len(report.Sections))
	}
	var want []string
	for i := range sum.Bots {
		want = append(want, sum.Bots[i].Bot+" "+sum.Bots[i].Host+" "+sum.Bots[i].Identity)
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("bots table rows:\n%s\nwant the audit's:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	if images != 0 || scripts != 1 || handlers != 0 || links != 0 {
		t.Errorf("%d images or embedded elements, %d scripts, %d elements with on* handlers, %d links off the page: want 0, 1, 0, 0", images, scripts, handlers, links)
	}
	for _, h := range hostileTexts {
		if !strings.Contains(all, h) {
			t.Errorf("the page's text lacks %q", h)
		}
	}
	if !strings.Contains(text, "Bytespider") || !strings.Contains(text, "Disallow: /") {
		t.Errorf("the page does not show the bots and rules (JavaScript %v)", js)
	}
	name := filepath.Join(shotDir, fmt.Sprintf("report-js-%v.png", js))
	if err := os.WriteFile(name, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("full-page screenshot: %s", name)
	if js {
		// One picture per section, easier to look at than the whole page.
		for _, s := range report.Sections {
			shot, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.ID(s.ID)))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(shotDir, "section-"+s.ID+".png"), shot, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
