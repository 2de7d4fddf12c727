package bench

import (
	"math"
	"sort"
)

// Summary is the distribution of one measure over many schemas.
type Summary struct {
	N      int     `json:"n"`
	Median float64 `json:"median"`
	P90    float64 `json:"p90"`
	P99    float64 `json:"p99"`
	Max    float64 `json:"max"`
}

// Summarize sorts a copy of xs and takes nearest-rank quantiles.
func Summarize(xs []float64) Summary {
	if len(xs) == 0 {
		return Summary{}
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return Summary{N: len(s), Median: Quantile(s, 0.5), P90: Quantile(s, 0.9), P99: Quantile(s, 0.99), Max: s[len(s)-1]}
}

// Quantile is the nearest-rank q-quantile of sorted xs (q in [0,1]).
func Quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	if i < 0 {
		i = 0
	}
	if i >= len(sorted) {
		i = len(sorted) - 1
	}
	return sorted[i]
}

// Correlation is Pearson's r of two equally long series; NaN when either is
// constant or shorter than 2.
func Correlation(x, y []float64) float64 {
	n := len(x)
	if n < 2 || len(y) != n {
		return math.NaN()
	}
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx, my = mx/float64(n), my/float64(n)
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return math.NaN()
	}
	return sxy / math.Sqrt(sxx*syy)
}
