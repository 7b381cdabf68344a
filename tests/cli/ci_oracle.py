# ci_oracle.py - the 95% interval of a ratio B/A over runs, computed independently of profana: Welch's t on the logarithms, with Student's t quantile found by integrating its density numerically (no table).
import math


def t_cdf(t, df):
    """P(T <= t) for Student's t with df degrees of freedom, by Simpson's rule on the density."""
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    f = lambda x: c * (1 + x * x / df) ** (-(df + 1) / 2)
    n = 4000
    h = t / n
    s = f(0) + f(t) + sum((4 if i % 2 else 2) * f(i * h) for i in range(1, n))
    return 0.5 + s * h / 3


def t975(df):
    lo, hi = 0.0, 100.0
    for _ in range(45):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < 0.975:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def ratio_ci(a, b):
    """(ratio, lo, hi, spread) of B/A: ratio of geometric means, Welch interval on logs."""
    a = [x for x in a if x > 0]
    b = [x for x in b if x > 0]
    la, lb = [math.log(x) for x in a], [math.log(x) for x in b]
    ma, mb = sum(la) / len(la), sum(lb) / len(lb)
    ea = sum((x - ma) ** 2 for x in la) / (len(la) - 1) / len(la)
    eb = sum((x - mb) ** 2 for x in lb) / (len(lb) - 1) / len(lb)
    d = mb - ma
    se = math.sqrt(ea + eb)
    spread = max(max(a) / min(a), max(b) / min(b)) - 1
    if se == 0:
        return math.exp(d), math.exp(d), math.exp(d), spread
    df = (ea + eb) ** 2 / (ea * ea / (len(la) - 1) + eb * eb / (len(lb) - 1))
    h = t975(max(df, 1.0)) * se
    return math.exp(d), math.exp(d - h), math.exp(d + h), spread


def verdict(r, lo, hi, spread):
    if (lo <= 1 <= hi) or abs(math.log(r)) <= math.log1p(spread):
        return "same"
    return "slower" if lo > 1 else "faster"


if __name__ == "__main__":
    for df in (1, 2, 2.5, 3, 4, 7.3, 10, 30, 45, 200):
        print(df, round(t975(df), 5))
    print(ratio_ci([100, 102, 98], [120, 121, 119]))
    print(ratio_ci([100, 101], [100.5, 101.5, 99.5, 100]))
