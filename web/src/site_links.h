// The top bar's "Method" menu: links from the app to the site's static pages, the method page
// (site/method.html) and the sources and assumptions page (sources.html, generated from the
// tables). The hosted app opens them beside itself; the offline file carries a copy of the method
// page (inline_offline.py) and opens it without any request, and says that the sources page,
// too large to carry, is on the hosted site.
//
//   same_line_or_wrap(site_links_width(ui)); site_links(ui);
#pragma once
#include "widgets.h"

namespace sizer_web {

float site_links_width(Ui& ui);  // the button's width, for laying out the top bar
void site_links(Ui& ui);         // the button and its popup (rects "button:method", "menu:method-page", "menu:sources-page")

}  // namespace sizer_web
