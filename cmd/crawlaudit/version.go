package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"github.com/crawlaudit/crawlaudit/audit/store"
	"github.com/crawlaudit/crawlaudit/verify"
)

func init() {
	subcommands = append(subcommands, func(e *env) *cobra.Command {
		return &cobra.Command{
			Use:   "version",
			Short: "Print the version of crawlaudit",
			Args:  cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				fmt.Fprintf(e.stdout, "crawlaudit %s\n", toolVersion())
				if rev := buildRevision(); rev != "" {
					fmt.Fprintf(e.stdout, "built from %s\n", rev)
				}
				duck, err := store.Version(cmd.Context())
				if err != nil {
					duck = "unknown (" + err.Error() + ")"
				}
				fmt.Fprintf(e.stdout, "Go %s, DuckDB %s (%s %s), Arrow %s %s\n", runtime.Version(), duck,
					duckdbModule, moduleVersion(duckdbModule), arrowModule, moduleVersion(arrowModule))
				info, err := verify.BuiltinSnapshot()
				if err != nil {
					return err
				}
				ranges, err := verify.Snapshot()
				if err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "IP range snapshot made %s (%d bytes), the operators' lists with their history:\n",
					info.Made.UTC().Format(time.RFC3339), info.Size)
				for _, s := range ranges.Info() {
					if s.Versions == 0 {
						fmt.Fprintf(e.stdout, "  %-38s %-10s no list in the snapshot (crawlaudit ranges update)\n", s.Name, s.Operator)
						continue
					}
					refused := ""
					if n := len(s.Refused); n > 0 {
						refused = fmt.Sprintf(" (and %d refused as implausible)", n)
					}
					fmt.Fprintf(e.stdout, "  %-38s %-10s %3d versions %s … %s%s\n", s.Name, s.Operator, s.Versions,
						s.First.UTC().Format("2006-01-02"), s.Last.UTC().Format("2006-01-02"), refused)
				}
				return nil
			},
		}
	})
}

// The modules whose versions `crawlaudit version` prints.
const (
	duckdbModule = "github.com/duckdb/duckdb-go/v2"
	arrowModule  = "github.com/apache/arrow-go/v18"
)

// moduleVersion returns the version of a dependency this binary was built
// with, or "unknown".
func moduleVersion(path string) string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == path {
				if d.Replace != nil {
					return d.Replace.Version
				}
				return d.Version
			}
		}
	}
	return "unknown"
}

// buildRevision returns the VCS commit this binary was built from (with
// "+dirty" for uncommitted changes), or "" when the build did not record it.
func buildRevision() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev == "" {
		return ""
	}
	return "commit " + rev + dirty
}

// toolVersion returns the module version this binary was built from, or
// "devel".
func toolVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
