// Command prometheus-parse reads Prometheus text exposition format on stdin with the parser
// Prometheus itself uses (github.com/prometheus/common/expfmt) and prints, as JSON, each metric
// family's type and its samples' labels and values. It exits 1 with the parser's error when the
// text is not valid exposition format. The metrics test pipes /metrics through it.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

type sample struct {
	Labels map[string]string `json:"labels"`
	Value  float64           `json:"value"`
}

type family struct {
	Type    string   `json:"type"`
	Samples []sample `json:"samples"`
}

func main() {
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out := map[string]family{}
	for name, mf := range families {
		f := family{Type: mf.GetType().String()}
		for _, m := range mf.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			var value float64
			switch {
			case m.Counter != nil:
				value = m.GetCounter().GetValue()
			case m.Gauge != nil:
				value = m.GetGauge().GetValue()
			case m.Histogram != nil:
				value = float64(m.GetHistogram().GetSampleCount())
			case m.Summary != nil:
				value = float64(m.GetSummary().GetSampleCount())
			case m.Untyped != nil:
				value = m.GetUntyped().GetValue()
			}
			f.Samples = append(f.Samples, sample{Labels: labels, Value: value})
		}
		out[name] = f
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
