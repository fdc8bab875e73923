// Package glicko is the Glicko-2 rating system of Mark E. Glickman,
// "Example of the Glicko-2 system" (Boston University, 2013): a rating, its
// deviation (how uncertain it is) and its volatility (how erratic the
// player's results are), updated from the results of a rating period.
//
// No Glicko-2 module could be had from the Go module proxy, so this is a
// small implementation of the paper's steps 1-8, tested against its
// worked example.
package glicko

import "math"

// Rating is a player's rating on the scale shown to players (the Glicko
// scale: 1500 for a new player).
type Rating struct {
	Rating, Deviation, Volatility float64
}

// Result is one game of a rating period: the opponent's rating before the
// period and the player's score, 1 for a win, 0.5 for a draw, 0 for a loss.
type Result struct {
	Opponent Rating
	Score    float64
}

// The system's constants.
const (
	// Tau constrains the change of volatility over time; the paper
	// suggests 0.3 to 1.2 and works its example with 0.5.
	Tau = 0.5
	// scale converts the Glicko scale to the Glicko-2 scale (step 2).
	scale = 173.7178
	// epsilon is the convergence tolerance of the volatility (step 5).
	epsilon = 0.000001
	// MaxDeviation is a new player's deviation, and the largest one.
	MaxDeviation = 350
)

// New returns a new player's rating: 1500, deviation 350, volatility 0.06
// (the paper's suggested start).
func New() Rating { return Rating{1500, MaxDeviation, 0.06} }

// g is the paper's g(φ).
func g(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

// expect is the paper's E(μ, μj, φj): the expected score against j.
func expect(mu, muJ, phiJ float64) float64 { return 1 / (1 + math.Exp(-g(phiJ)*(mu-muJ))) }

// Update returns r after a rating period with the given results and the
// system constant tau (Tau). With no results only the deviation grows
// (step 6 alone). The deviation never exceeds MaxDeviation.
func Update(r Rating, results []Result, tau float64) Rating {
	mu, phi, sigma := (r.Rating-1500)/scale, r.Deviation/scale, r.Volatility
	if len(results) == 0 {
		return Rating{r.Rating, math.Min(math.Sqrt(phi*phi+sigma*sigma)*scale, MaxDeviation), sigma}
	}
	// Step 3 and 4: the estimated variance v and the improvement delta.
	var vInv, sum float64
	for _, res := range results {
		muJ, phiJ := (res.Opponent.Rating-1500)/scale, res.Opponent.Deviation/scale
		e := expect(mu, muJ, phiJ)
		gj := g(phiJ)
		vInv += gj * gj * e * (1 - e)
		sum += gj * (res.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	// Step 5: the new volatility, by the Illinois algorithm.
	sigma = volatility(delta, phi, v, sigma, tau)
	// Step 6 and 7: the new deviation and rating.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	// Step 8: back to the Glicko scale.
	return Rating{muNew*scale + 1500, math.Min(phiNew*scale, MaxDeviation), sigma}
}

// volatility is step 5 of the paper: the σ' that zeroes f, found by the
// Illinois algorithm (a regula falsi).
func volatility(delta, phi, v, sigma, tau float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
