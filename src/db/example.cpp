// Example for wikic/db.hpp: `wikic_db_example out/rules.json [EDITION]` prints, per
// page, each rule's id, kind and rules text in that edition's wording.
#include <iostream>
#include <wikic/db.hpp>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: wikic_db_example rules.json|rules.yaml [C1|C2|WE]\n";
    return 2;
  }
  std::string edition = argc > 2 ? argv[2] : "C2";
  std::string error;
  auto db = wikic::db::load(argv[1], error);
  if (!db) {
    std::cerr << error << '\n';
    return 2;
  }
  for (const auto& page : db->pages) {
    std::cout << "# " << page.title << " (" << page.rules.size() << " rules)\n";
    for (const auto& rule : page.rules)
      std::cout << rule.id << " [" << rule.kind << (rule.core ? ", core" : "") << "] when " << rule.when << ": "
                << rule.rules.in(edition) << '\n';
  }
  return 0;
}
