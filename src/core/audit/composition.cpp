// compose: what the live releases of one source leave each person when an attacker who knows its quasi-identifiers
// intersects the candidate values of its classes in every release (Ganta et al., KDD 2008's composition attack).
#include <algorithm>
#include <iterator>

#include "republication.hpp"

namespace anon {

CompositionFigures compose(const std::vector<ComposedColumn>& releases, const std::vector<ComposedRow>& rows,
                           std::size_t required) {
    CompositionFigures f;
    f.required = required;
    std::vector<ValueHash> left, scratch;
    InterruptPoller poller;
    for (const ComposedRow& row : rows) {
        poller.tick();
        if (row.q.size() != releases.size())
            throw Error(ErrorKind::internal, "composition: a row has " + std::to_string(row.q.size()) +
                                                 " combinations for " + std::to_string(releases.size()) + " releases");
        bool published = false;
        std::size_t smallest = 0;  // the fewest candidates one release alone leaves the row
        for (std::size_t r = 0; r < releases.size(); ++r) {
            const ComposedColumn& release = releases[r];
            const std::vector<ValueHash>* c =
                row.q[r] == 0 || !release.candidates ? nullptr : release.candidates->lookup(row.q[r], release.column);
            if (!c) continue;
            smallest = published ? std::min(smallest, c->size()) : c->size();
            if (!published) {
                left = *c;
            } else {
                scratch.clear();
                std::set_intersection(left.begin(), left.end(), c->begin(), c->end(), std::back_inserter(scratch));
                left.swap(scratch);
            }
            published = true;
        }
        if (!published || row.count <= 0) continue;
        f.persons_by_candidates[left.size()] += row.count;
        f.fewest = f.persons == 0 ? left.size() : std::min(f.fewest, left.size());
        f.persons += row.count;
        // Below the count required, and fewer than any release alone leaves (a release whose own classes leave
        // fewer, e.g. MASK's distorted ones, is not refused for what it is).
        if (left.size() < required && left.size() < smallest) f.below_required += row.count;
    }
    return f;
}

}  // namespace anon
