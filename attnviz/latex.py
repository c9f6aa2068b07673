"""LaTeX of the chapter's equations, shown beside the figures computed from them."""

SDPA = r"A_D(Q, K, V) = \mathrm{softmax}\!\left(\frac{Q K^\top}{\sqrt{D}}\right) V"
SINGLE_QUERY = (
    r"\begin{aligned}[a_1, \dots, a_N] &= \mathrm{softmax}\!\left("
    r"\frac{\mathbf{q}^\top X^\top}{\sqrt{D}}\right) \\ \tilde{\mathbf{q}}^\top"
    r" &= \sum_{i=1}^{N} a_i \mathbf{x}_i^\top\end{aligned}"
)
ATTEND_ANY_SCORE = (
    r"\begin{aligned}a_i &= \frac{\exp r(\mathbf{z}_i, \mathbf{q})}"
    r"{\sum_{j=1}^{N} \exp r(\mathbf{z}_j, \mathbf{q})} \\ \tilde{\mathbf{q}}"
    r" &= \sum_{i=1}^{N} a_i \mathbf{z}_i\end{aligned}"
)
MULTIHEAD = (
    r"\begin{aligned}Q &= X W^Q,\ K = X W^K,\ V = X W^V \\"
    r" \mathrm{head}_h &= A_{D'}(Q W_h^Q, K W_h^K, V W_h^V) \\"
    r" A^M &= [\mathrm{head}_1, \dots, \mathrm{head}_H]\, W^O\end{aligned}"
)
POST_LN = (
    r"\begin{aligned}Q' &= \mathrm{LN}(Q + \tilde{Q}) \\ \mathrm{out} &="
    r" \mathrm{LN}\big(\mathrm{ReLU}(Q' W_1 + \mathbf{1} b_1^\top) W_2"
    r" + \mathbf{1} b_2^\top + Q'\big)\end{aligned}"
)
PRE_LN = (
    r"\begin{aligned}h &= x + \mathrm{MHA}(\mathrm{LN}(x)) \\"
    r" \mathrm{out} &= h + \mathrm{FFN}(\mathrm{LN}(h))\end{aligned}"
)
EQUIVARIANCE = r"f(PX) = P\, f(X)"
