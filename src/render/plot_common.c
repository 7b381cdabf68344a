/* plot_common.c - what both charts share: category colours, the legend, label widths, short names, the svg root. */
#include "profana/plot.h"

#include <stdlib.h>
#include <string.h>

/* Distinct, print-safe fills (Tableau 20 without its red, which marks dots above a roof). */
static const char *const category_colors[PF_CAT_COUNT] = {
    [PF_CAT_TRITON_POINTWISE] = "#1f77b4",
    [PF_CAT_TRITON_REDUCTION] = "#aec7e8",
    [PF_CAT_TRITON_PERSISTENT_REDUCTION] = "#9edae5",
    [PF_CAT_TRITON_TEMPLATE] = "#17becf",
    [PF_CAT_TRITON_FOREACH] = "#c5b0d5",
    [PF_CAT_TRITON_OTHER] = "#dbdb8d",
    [PF_CAT_GEMM] = "#ff7f0e",
    [PF_CAT_CONV] = "#ffbb78",
    [PF_CAT_ATTENTION] = "#9467bd",
    [PF_CAT_ELEMENTWISE] = "#2ca02c",
    [PF_CAT_REDUCTION] = "#98df8a",
    [PF_CAT_NORMALIZATION] = "#bcbd22",
    [PF_CAT_COMMUNICATION] = "#8c564b",
    [PF_CAT_MEMCPY] = "#e377c2",
    [PF_CAT_MEMSET] = "#f7b6d2",
    [PF_CAT_OTHER] = "#7f7f7f",
};

const char *pf_category_color(pf_category c)
{
    return c >= 0 && c < PF_CAT_COUNT ? category_colors[c] : category_colors[PF_CAT_OTHER];
}

double pf_plot_text_width(const char *s, double font_px)
{
    size_t chars = 0;
    for (; *s; s++)
        chars += ((unsigned char)*s & 0xC0) != 0x80;
    return (double)chars * font_px * 0.58;
}

#define SWATCH 10.0
#define LEGEND_ROW 16.0

double pf_plot_legend(pf_xw *w, double x, double y, double width, const pf_legend_item *items, size_t n)
{
    double cx = x, cy = y;
    for (size_t i = 0; i < n; i++) {
        double iw = SWATCH + 4 + pf_plot_text_width(items[i].label, PF_PLOT_FONT_PX) + 14;
        if (cx > x && cx + iw > x + width) {
            cx = x;
            cy += LEGEND_ROW;
        }
        if (w) {
            pf_xw_begin(w, "rect");
            pf_xw_attr(w, "class", "swatch");
            pf_xw_attr_num(w, "x", cx);
            pf_xw_attr_num(w, "y", cy);
            pf_xw_attr_num(w, "width", SWATCH);
            pf_xw_attr_num(w, "height", SWATCH);
            pf_xw_attr(w, "fill", items[i].color);
            pf_xw_attr(w, "stroke", "#333");
            pf_xw_attr(w, "stroke-width", "0.5");
            pf_xw_end(w);
            pf_xw_begin(w, "text");
            pf_xw_attr_num(w, "x", cx + SWATCH + 4);
            pf_xw_attr_num(w, "y", cy + SWATCH - 1);
            pf_xw_text(w, items[i].label);
            pf_xw_end(w);
        }
        cx += iw;
    }
    return n ? cy - y + LEGEND_ROW : 0;
}

void pf_plot_svg_begin(pf_xw *w, const char *cls, double width, double height)
{
    char vb[96], a[32], b[32];
    snprintf(vb, sizeof vb, "0 0 %s %s", pf_num_fmt(a, sizeof a, width, 2), pf_num_fmt(b, sizeof b, height, 2));
    pf_xw_begin(w, "svg");
    pf_xw_attr(w, "xmlns", "http://www.w3.org/2000/svg");
    pf_xw_attr(w, "class", cls);
    pf_xw_attr_num(w, "width", width);
    pf_xw_attr_num(w, "height", height);
    pf_xw_attr(w, "viewBox", vb);
    pf_xw_attr(w, "font-family", "DejaVu Sans, Helvetica, Arial, sans-serif");
    pf_xw_attr_num(w, "font-size", PF_PLOT_FONT_PX);
    pf_xw_begin(w, "rect");
    pf_xw_attr(w, "width", "100%");
    pf_xw_attr(w, "height", "100%");
    pf_xw_attr(w, "fill", "#ffffff");
    pf_xw_end(w);
}

unsigned pf_dtypes_used(const pf_analysis *an, const pf_device_report *d)
{
    (void)an;
    return d->dtypes;
}

/* ---- short names ---- */

/* Copies s without what sits inside <...> (template arguments), in place. A '>' with no '<'
 * open (as in "->") is kept. */
static void drop_templates(char *s)
{
    char *o = s;
    int depth = 0;
    for (; *s; s++) {
        if (*s == '<')
            depth++;
        else if (*s == '>' && depth > 0)
            depth--;
        else if (depth == 0)
            *o++ = *s;
    }
    *o = 0;
}

/* Cuts a trailing, balanced "(...)": a kernel's argument list. */
static void drop_arg_list(char *s)
{
    size_t n = strlen(s);
    if (n == 0 || s[n - 1] != ')')
        return;
    int depth = 0;
    for (size_t i = n; i-- > 0;) {
        depth += s[i] == ')';
        depth -= s[i] == '(';
        if (depth == 0) {
            if (i > 0)
                s[i] = 0;
            return;
        }
    }
}

static void trim(char *s)
{
    size_t n = strlen(s), b = 0;
    while (n > 0 && s[n - 1] == ' ')
        s[--n] = 0;
    while (s[b] == ' ')
        b++;
    memmove(s, s + b, n - b + 1);
}

/* The last component of a qualified name (at::native::add -> add), in place. */
static void drop_namespaces(char *s)
{
    const char *last = s, *p = s;
    while ((p = strstr(p, "::")) != NULL)
        last = p += 2;
    memmove(s, last, strlen(last) + 1);
    trim(s);
}

/* The name of a kernel's first template argument that is not a number (its functor, in
 * ATen's element-wise kernels), without its own arguments and namespaces, into out; "" when
 * there is none. s starts after the function name's '<'. */
static void first_type_arg(const char *s, char *out, size_t n)
{
    out[0] = 0;
    while (*s) {
        while (*s == ' ')
            s++;
        size_t len = 0;
        int depth = 0;
        while (s[len] && !(depth == 0 && (s[len] == ',' || s[len] == '>'))) {
            depth += s[len] == '<' || s[len] == '(';
            depth -= s[len] == '>' || s[len] == ')';
            len++;
        }
        if (len && !(s[0] >= '0' && s[0] <= '9')) {
            size_t cut = strcspn(s, "<(");
            snprintf(out, n, "%.*s", (int)(cut < len ? cut : len), s);
            drop_namespaces(out);
            return;
        }
        if (s[len] != ',')
            return;
        s += len + 1;
    }
}

/* base<functor> of a C++ kernel signature, in place (buf holds a copy of key); unchanged
 * when that leaves nothing. */
static void kernel_base_name(const char *key, char *buf, size_t n)
{
    const char *s = strncmp(key, "void ", 5) == 0 ? key + 5 : key;
    char arg[128];
    /* The argument list's '(' (not that of "(anonymous namespace)") ends the name. */
    const char *lt = strchr(s, '<'), *paren = s;
    while ((paren = strchr(paren, '(')) != NULL && strncmp(paren, "(anonymous namespace)", 21) == 0)
        paren += 21;
    arg[0] = 0;
    if (lt && (!paren || lt < paren))
        first_type_arg(lt + 1, arg, sizeof arg);
    snprintf(buf, n, "%s", s);
    drop_templates(buf);
    drop_arg_list(buf);
    trim(buf);
    drop_namespaces(buf);
    if (!*buf) {
        snprintf(buf, n, "%s", key);
        return;
    }
    if (*arg) {
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "<%s>", arg);
    }
}

/* Cuts buf to limit characters (UTF-8 aware) in the middle, where "..." replaces what is
 * left out: kernel variants differ at the end (..._NNT, ..._TNT), ops at the start. */
static void cut_middle(char *buf, int limit)
{
    size_t chars = 0;
    for (const char *p = buf; *p; p++)
        chars += ((unsigned char)*p & 0xC0) != 0x80;
    if (limit <= 3 || chars <= (size_t)limit)
        return;
    size_t tail = ((size_t)limit - 3) / 2, head = (size_t)limit - 3 - tail;
    size_t i = 0, c = 0, head_end = 0, tail_start = 0;
    for (; buf[i]; i++) {
        if (((unsigned char)buf[i] & 0xC0) == 0x80)
            continue;
        if (c == head)
            head_end = i;
        if (c == chars - tail)
            tail_start = i;
        c++;
    }
    memcpy(buf + head_end, "...", 3);
    memmove(buf + head_end + 3, buf + tail_start, strlen(buf + tail_start) + 1);
}

const char *pf_short_name(const char *key, pf_group_by g, int limit, char *buf, size_t n)
{
    if (n == 0)
        return buf;
    size_t len = strlen(key) + 1;
    char *work = malloc(len + 256);
    if (!work) {
        snprintf(buf, n, "%s", key);
    } else {
        if (g == PF_GROUP_KERNEL)
            kernel_base_name(key, work, len + 256);
        else
            memcpy(work, key, len);
        cut_middle(work, limit);
        snprintf(buf, n, "%s", work);
        free(work);
    }
    /* A buffer too small may have cut inside a UTF-8 character: drop its leading bytes. */
    size_t end = strlen(buf), i = end;
    while (i > 0 && ((unsigned char)buf[i - 1] & 0xC0) == 0x80)
        i--;
    if (i > 0 && (unsigned char)buf[i - 1] >= 0xC0) {
        unsigned char lead = (unsigned char)buf[i - 1];
        size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
        if (end - (i - 1) < need)
            buf[i - 1] = 0;
    }
    return buf;
}
