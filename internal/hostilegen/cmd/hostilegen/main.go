package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/crawlaudit/crawlaudit/internal/hostilegen"
)

func main() {
	var o hostilegen.Options
	flag.IntVar(&o.Lines, "lines", 1000, "log lines")
	flag.IntVar(&o.Agents, "agents", 0, "distinct bot User-Agents (0: Googlebot's only)")
	flag.IntVar(&o.BotNames, "bot-names", 0, "distinct bot names the agents share (0: one per agent)")
	flag.IntVar(&o.Addresses, "addresses", 0, "distinct client addresses (0: one)")
	flag.BoolVar(&o.IPv6, "ipv6", false, "IPv6 client addresses: a few in each /64, over eight /32s")
	flag.IntVar(&o.PathBytes, "path-bytes", 0, "length of every path (0: short)")
	flag.Uint64Var(&o.Seed, "seed", 1, "random seed")
	out := flag.String("o", "-", "output file (- for stdout)")
	robots := flag.String("robots", "", "also write the robots.txt to this file")
	flag.Parse()
	if err := run(o, *out, *robots); err != nil {
		fmt.Fprintln(os.Stderr, "hostilegen:", err)
		os.Exit(1)
	}
}

func run(o hostilegen.Options, out, robots string) error {
	if robots != "" {
		if err := os.WriteFile(robots, []byte(hostilegen.Robots), 0o644); err != nil {
			return err
		}
	}
	var w io.Writer = os.Stdout
	if out != "-" {
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	return hostilegen.Write(w, o)
}
