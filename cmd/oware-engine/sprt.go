package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// sprt is a sequential probability ratio test between two hypotheses on
// the Elo difference of the first engine over the second (logistic Elo:
// an expected score of 1/(1+10^(-elo/400))): H0 elo = Elo0, H1 elo =
// Elo1, with the error rates Alpha (accepting H1 when H0 holds) and Beta
// (accepting H0 when H1 holds). It is the generalized SPRT over game pairs
// (the pentanomial model) as fishtest computes it (LLR_logistic of its
// stat_util.py; M. Van den Bergh, "A practical introduction to the
// GSPRT", 2016): the pairs' scores (0, 1/4, 1/2, 3/4 or 1: the first
// engine's points in the pair over 2) have the observed distribution p̂;
// for each hypothesis the distribution closest to p̂ (maximum likelihood)
// whose mean is the hypothesis' expected score s is p_i = p̂_i / (1 +
// λ(x_i - s)); the LLR is N Σ p̂_i ln(p1_i / p0_i) over N pairs.
type sprt struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// parseSPRT reads "elo0,elo1" (elo0 < elo1) with the error rates given.
func parseSPRT(s string, alpha, beta float64) (sprt, error) {
	a, b, ok := strings.Cut(s, ",")
	e0, err0 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	e1, err1 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	switch {
	case !ok || err0 != nil || err1 != nil:
		return sprt{}, fmt.Errorf("--sprt %q: want elo0,elo1, e.g. 0,10", s)
	case e0 >= e1 || math.Abs(e0) > 1000 || math.Abs(e1) > 1000:
		return sprt{}, fmt.Errorf("--sprt %q: want elo0 < elo1, both within ±1000", s)
	case !(alpha > 0 && alpha < 0.5) || !(beta > 0 && beta < 0.5):
		return sprt{}, errors.New("--alpha and --beta: want more than 0 and less than 0.5")
	}
	return sprt{Elo0: e0, Elo1: e1, Alpha: alpha, Beta: beta}, nil
}

// bounds returns the LLR below which H0 is accepted, ln(β/(1-α)), and
// above which H1 is, ln((1-β)/α).
func (t sprt) bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// expectedScore is the score an Elo difference gives (logistic).
func expectedScore(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// llr returns the log-likelihood ratio of the pairs counted in penta
// (penta[k]: pairs in which the first engine made k half-points of 4, i.e.
// 0, 1/2, 1, 3/2 or 2 points). A count of 0 counts as 0.001 (fishtest's
// regularization); no pair at all gives 0.
func (t sprt) llr(penta [5]int) float64 {
	if penta == [5]int{} {
		return 0
	}
	var n float64
	var pdf [5]float64
	for k, c := range penta {
		pdf[k] = max(float64(c), 1e-3)
		n += pdf[k]
	}
	for k := range pdf {
		pdf[k] /= n
	}
	p0, p1 := mleWithMean(pdf, expectedScore(t.Elo0)), mleWithMean(pdf, expectedScore(t.Elo1))
	var sum float64
	for k, p := range pdf {
		sum += p * math.Log(p1[k]/p0[k])
	}
	return n * sum
}

// mleWithMean returns the distribution over the pair scores k/4 nearest
// to pdf (maximum likelihood) whose mean is s (0 < s < 1): pdf_k / (1 +
// λ(k/4 - s)), with λ found by bisection where the mean is s (the mean
// falls as λ grows, within (-1/(1-s), 1/s) where every term is positive).
func mleWithMean(pdf [5]float64, s float64) [5]float64 {
	lo, hi := -1/(1-s), 1/s
	var lambda float64
	for range 200 {
		lambda = (lo + hi) / 2
		f := 0.0
		for k, p := range pdf {
			d := float64(k)/4 - s
			f += p * d / (1 + lambda*d)
		}
		if f > 0 {
			lo = lambda
		} else {
			hi = lambda
		}
	}
	var q [5]float64
	for k, p := range pdf {
		q[k] = p / (1 + lambda*(float64(k)/4-s))
	}
	return q
}

// decision tells what an LLR decides: "H1" (the first engine is at least
// Elo1 stronger), "H0" (at most Elo0), or "" (play on).
func (t sprt) decision(llr float64) string {
	lower, upper := t.bounds()
	switch {
	case llr >= upper:
		return "H1"
	case llr <= lower:
		return "H0"
	}
	return ""
}

// pentanomialIndex returns the index of a pair with the first engine's
// scores a and b (each 0, 1/2 or 1) in a pentanomial count.
func pentanomialIndex(a, b float64) int { return int(math.Round(2 * (a + b))) }
